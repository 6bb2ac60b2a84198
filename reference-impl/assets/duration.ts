// The duration of an audio upload, with music-metadata. `duration: true` makes it read the whole
// file when the headers do not say (Ogg needs the last page's granule position, MP3 without a
// Xing header needs its frames counted).
// music-metadata is loaded with the first audio upload, not at start.
let musicMetadataLoading: Promise<typeof import('music-metadata')> | undefined;

/** Seconds of audio, or undefined when no positive, finite duration can be read. */
export async function audioDurationSeconds(bytes: Uint8Array, mimeType: string): Promise<number | undefined> {
  try {
    musicMetadataLoading ??= import('music-metadata');
    const metadata = await (await musicMetadataLoading).parseBuffer(bytes, { mimeType, size: bytes.length }, { duration: true, skipCovers: true });
    const seconds = metadata.format.duration;
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
  } catch {
    return undefined;
  }
}
