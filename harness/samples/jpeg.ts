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

export function jpegImage(): Uint8Array {
  return concatBytes([startOfImage, jfif, quantisation, frame, dcTable, acTable, scan, entropyData, endOfImage]);
}
