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

export function mp3Seconds(seconds: number): Uint8Array {
  if (!(seconds > 0)) throw new RangeError('An MP3 sample needs a positive duration');
  const frame = concatBytes([frameHeader, new Uint8Array(frameBytes - frameHeader.length)]);
  return concatBytes(Array.from({ length: mp3FrameCount(seconds) }, () => frame));
}
