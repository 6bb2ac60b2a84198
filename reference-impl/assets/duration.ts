// The duration of an audio upload, with music-metadata, and the sample rate and channels its
// headers declare (for the decoded-samples limit, memory-limits.ts). `duration: true` makes it
// read the whole file when the headers do not say (Ogg needs the last page's granule position,
// MP3 without a Xing header needs its frames counted).
// music-metadata is loaded with the first audio upload, not at start.
let musicMetadataLoading: Promise<typeof import('music-metadata')> | undefined;

export interface AudioFormat {
  durationSeconds: number;
  /** As the headers declare them; undefined when they do not. */
  sampleRate?: number;
  channels?: number;
}

/** Duration, sample rate and channels, or undefined when no positive, finite duration can be read. */
export async function audioFormat(bytes: Uint8Array, mimeType: string): Promise<AudioFormat | undefined> {
  try {
    musicMetadataLoading ??= import('music-metadata');
    const { format } = await (await musicMetadataLoading).parseBuffer(bytes, { mimeType, size: bytes.length }, { duration: true, skipCovers: true });
    const seconds = format.duration;
    if (seconds === undefined || !Number.isFinite(seconds) || !(seconds > 0)) return undefined;
    const found: AudioFormat = { durationSeconds: seconds };
    if (format.sampleRate !== undefined && format.sampleRate > 0) found.sampleRate = format.sampleRate;
    if (format.numberOfChannels !== undefined && format.numberOfChannels > 0) found.channels = format.numberOfChannels;
    return found;
  } catch {
    return undefined;
  }
}

/** Seconds of audio, or undefined when no positive, finite duration can be read. */
export async function audioDurationSeconds(bytes: Uint8Array, mimeType: string): Promise<number | undefined> {
  return (await audioFormat(bytes, mimeType))?.durationSeconds;
}
