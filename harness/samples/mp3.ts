// MPEG-1 Layer III at 48 kHz, 64 kbit/s, mono: every frame is exactly 192 bytes (no padding) and
// 1152 samples (24 ms). Side information and main data are all zero: every granule has no coded
// bits, which decoders render as silence.
import { concatBytes } from './bytes.ts';

export const mp3SampleRate = 48000;
export const mp3SamplesPerFrame = 1152;
const frameBytes = 192; // 144 * 64000 / 48000
// Sync + MPEG-1 + Layer III + no CRC | bitrate index 5 (64k), rate index 1 (48k) | mono.
const frameHeader = new Uint8Array([0xff, 0xfb, 0x54, 0xc0]);

export function mp3FrameCount(seconds: number): number {
  return Math.max(1, Math.round((seconds * mp3SampleRate) / mp3SamplesPerFrame));
}

/** ID3v2's "syncsafe" integers: four bytes of seven bits each. */
const syncsafe = (value: number) => [21, 14, 7, 0].map((shift) => (value >> shift) & 0x7f);

/**
 * An ID3v2.3 tag of `bytes` bytes in all: its 10-byte header and one PRIV frame (an owner and
 * private data, which readers skip). A PRIV frame rather than padding: readers skip a frame by its
 * length, and some scan padding byte by byte (music-metadata took 1.7 s over 10 MB of it, 84 ms
 * over a frame of that size).
 */
function id3Tag(bytes: number): Uint8Array {
  const owner = new TextEncoder().encode('decision-conformance\0');
  const data = bytes - 20 - owner.length;
  if (data < 0 || bytes - 10 >= 2 ** 28) throw new RangeError(`Cannot make an ID3 tag of ${bytes} bytes`);
  const frameHeader = new Uint8Array(10);
  frameHeader.set([0x50, 0x52, 0x49, 0x56]); // PRIV
  new DataView(frameHeader.buffer).setUint32(4, owner.length + data);
  return concatBytes([new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, ...syncsafe(bytes - 10)]), frameHeader, owner, new Uint8Array(data)]);
}

/** `seconds` of silence; with `totalBytes`, grown to exactly that size by an ID3v2 tag before the frames. */
export function mp3Seconds(seconds: number, options: { totalBytes?: number } = {}): Uint8Array {
  if (!(seconds > 0)) throw new RangeError('An MP3 sample needs a positive duration');
  const frame = concatBytes([frameHeader, new Uint8Array(frameBytes - frameHeader.length)]);
  const frames = Array.from({ length: mp3FrameCount(seconds) }, () => frame);
  if (options.totalBytes === undefined) return concatBytes(frames);
  return concatBytes([id3Tag(options.totalBytes - frames.length * frameBytes), ...frames]);
}
