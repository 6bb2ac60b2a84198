// Native FLAC: "fLaC", a STREAMINFO block, then frames of 4000 samples (16 kHz, 16-bit, mono),
// each with one CONSTANT subframe of value 0 (silence), header CRC-8 and frame CRC-16.
import { createHash } from 'node:crypto';
import { concatBytes, latin1, MsbBitWriter, u16be } from './bytes.ts';
import { flacCrc16, flacCrc8 } from './checksums.ts';

export const flacSampleRate = 16000;
const blockSize = 4000;
const bitsPerSample = 16;

/** FLAC's "UTF-8" coding of the frame number (the UTF-8 scheme, extended to 36 bits). */
function codedNumber(value: number): Uint8Array {
  if (value < 0x80) return new Uint8Array([value]);
  // With c continuation bytes the sequence carries 6 + 5c bits.
  let continuation = 1;
  while (value >= 2 ** (6 + 5 * continuation)) continuation += 1;
  const leadingMarker = (0xff << (7 - continuation)) & 0xff;
  const bytes = [leadingMarker | Math.floor(value / 2 ** (6 * continuation))];
  for (let i = continuation - 1; i >= 0; i -= 1) bytes.push(0x80 | (Math.floor(value / 2 ** (6 * i)) & 0x3f));
  return new Uint8Array(bytes);
}

function streamInfo(totalSamples: number, last = true): Uint8Array {
  const bits = new MsbBitWriter();
  bits.write(blockSize, 16); // minimum block size
  bits.write(blockSize, 16); // maximum block size
  bits.write(0, 24); // minimum frame size: unknown
  bits.write(0, 24); // maximum frame size: unknown
  bits.write(flacSampleRate, 20);
  bits.write(0, 3); // channels - 1
  bits.write(bitsPerSample - 1, 5);
  bits.write(totalSamples, 36);
  const info = bits.finish();
  // MD5 of the decoded samples as signed little-endian 16-bit integers: all zero.
  const signature = createHash('md5')
    .update(new Uint8Array(totalSamples * 2))
    .digest();
  const data = concatBytes([info, signature]);
  // Metadata block header: last block or not, type 0 (STREAMINFO), 24-bit length.
  return concatBytes([new Uint8Array([last ? 0x80 : 0x00, 0, 0, data.length]), data]);
}

function frame(frameNumber: number, samples: number): Uint8Array {
  const header = concatBytes([
    new Uint8Array([0xff, 0xf8]), // sync, fixed block size
    new Uint8Array([0x75]), // block size from a 16-bit field at the end | 16 kHz
    new Uint8Array([0x08]), // mono | 16 bits per sample
    codedNumber(frameNumber),
    u16be(samples - 1),
  ]);
  const headerWithCrc = concatBytes([header, new Uint8Array([flacCrc8(header)])]);
  // Subframe: zero pad bit, type CONSTANT (000000), no wasted bits; then the 16-bit value 0.
  const body = concatBytes([headerWithCrc, new Uint8Array([0x00, 0x00, 0x00])]);
  return concatBytes([body, u16be(flacCrc16(body))]);
}

/** A PADDING metadata block (type 1, which readers skip) of `bytes` bytes in all, the last one. */
function paddingBlock(bytes: number): Uint8Array {
  const length = bytes - 4;
  if (length < 0 || length >= 2 ** 24) throw new RangeError(`Cannot make a FLAC padding block of ${bytes} bytes`);
  return concatBytes([new Uint8Array([0x81, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff]), new Uint8Array(length)]);
}

/** `seconds` of silence; with `totalBytes`, grown to exactly that size by a PADDING block after STREAMINFO. */
export function flacSeconds(seconds: number, options: { totalBytes?: number } = {}): Uint8Array {
  if (!(seconds > 0)) throw new RangeError('A FLAC sample needs a positive duration');
  const totalSamples = Math.round(seconds * flacSampleRate);
  const frames: Uint8Array[] = [];
  for (let start = 0, number = 0; start < totalSamples; start += blockSize, number += 1) {
    frames.push(frame(number, Math.min(blockSize, totalSamples - start)));
  }
  if (options.totalBytes === undefined) return concatBytes([latin1('fLaC'), streamInfo(totalSamples), ...frames]);
  const head = concatBytes([latin1('fLaC'), streamInfo(totalSamples, false)]);
  const framed = frames.reduce((sum, part) => sum + part.length, 0);
  return concatBytes([head, paddingBlock(options.totalBytes - head.length - framed), ...frames]);
}
