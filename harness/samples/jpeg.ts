// A minimal baseline JPEG: one 8-bit grey component, 8x8 pixels (one block). Both Huffman tables
// hold a single one-bit code, so the block is "DC difference 0, end of block": a flat mid-grey.
import { concatBytes, latin1, u16be } from './bytes.ts';

function segment(marker: number, payload: Uint8Array): Uint8Array {
  return concatBytes([new Uint8Array([0xff, marker]), u16be(payload.length + 2), payload]);
}

const startOfImage = new Uint8Array([0xff, 0xd8]);
const endOfImage = new Uint8Array([0xff, 0xd9]);

// JFIF 1.01, no density units, 1x1 aspect, no thumbnail.
const jfif = segment(0xe0, concatBytes([latin1('JFIF\0'), new Uint8Array([1, 1, 0, 0, 1, 0, 1, 0, 0])]));
// Quantisation table 0, 8-bit precision, all ones.
const quantisation = segment(0xdb, concatBytes([new Uint8Array([0x00]), new Uint8Array(64).fill(1)]));
// Start of frame, baseline: precision 8, height 8, width 8, one component (id 1, sampling 1x1, table 0).
const frame = segment(0xc0, new Uint8Array([8, 0, 8, 0, 8, 1, 1, 0x11, 0]));

/** A Huffman table with one code of length 1 for `symbol`. */
function singleCodeTable(tableClassAndId: number, symbol: number): Uint8Array {
  const codeCounts = new Uint8Array(16);
  codeCounts[0] = 1;
  return segment(0xc4, concatBytes([new Uint8Array([tableClassAndId]), codeCounts, new Uint8Array([symbol])]));
}

const dcTable = singleCodeTable(0x00, 0x00); // DC category 0: no difference bits follow
const acTable = singleCodeTable(0x10, 0x00); // AC symbol 0x00: end of block
// Start of scan: one component (id 1, DC table 0, AC table 0), full spectral range, no approximation.
const scan = segment(0xda, new Uint8Array([1, 1, 0x00, 0, 63, 0]));
// Entropy-coded data: DC code "0", EOB code "0", padded with ones to a byte.
const entropyData = new Uint8Array([0b0011_1111]);

/** A COM segment's payload is at most 65,533 bytes (its length field counts itself). */
const MAX_COMMENT = 65_533;

/**
 * Comment segments (COM, which decoders skip) of `bytes` bytes in all, each a 4-byte marker and
 * length and up to 65,533 bytes of spaces; undefined for 1 to 3 bytes, too few for a segment.
 */
function comments(bytes: number): Uint8Array[] | undefined {
  const segments: Uint8Array[] = [];
  let left = bytes;
  while (left > 0) {
    if (left < 4) return undefined;
    // Never leave 1 to 3 bytes for a last segment: take them from this one.
    let payload = Math.min(MAX_COMMENT, left - 4);
    if (left - 4 - payload > 0 && left - 4 - payload < 4) payload -= 4;
    segments.push(segment(0xfe, new Uint8Array(payload).fill(0x20)));
    left -= payload + 4;
  }
  return segments;
}

/** The picture; with `totalBytes`, grown to exactly that size by comment segments after the JFIF header. */
export function jpegImage(options: { totalBytes?: number } = {}): Uint8Array {
  const parts = [jfif, quantisation, frame, dcTable, acTable, scan, entropyData];
  if (options.totalBytes === undefined) return concatBytes([startOfImage, ...parts, endOfImage]);
  const fixed = 4 + parts.reduce((sum, part) => sum + part.length, 0);
  const padding = comments(options.totalBytes - fixed);
  if (!padding) throw new RangeError(`Cannot grow this JPEG to ${options.totalBytes} bytes`);
  return concatBytes([startOfImage, jfif, ...padding, ...parts.slice(1), endOfImage]);
}
