// A 1x1 lossless WebP (RIFF/WEBP with a VP8L chunk). Every prefix code is a "simple" code with a
// single symbol, so the one pixel costs no bits: its colour is the four symbols themselves.
import { concatBytes, latin1, LsbBitWriter, u32le } from './bytes.ts';

export interface WebpColour {
  alpha: number;
  red: number;
  green: number;
  blue: number;
}

function singleSymbolCode(bits: LsbBitWriter, symbol: number): void {
  bits.write(1, 1); // simple code
  bits.write(0, 1); // one symbol
  bits.write(1, 1); // the symbol is written with 8 bits
  bits.write(symbol, 8);
}

function vp8lBitstream(colour: WebpColour): Uint8Array {
  const bits = new LsbBitWriter();
  bits.write(0x2f, 8); // VP8L signature
  bits.write(0, 14); // width - 1
  bits.write(0, 14); // height - 1
  bits.write(colour.alpha === 255 ? 0 : 1, 1); // alpha is used
  bits.write(0, 3); // version
  bits.write(0, 1); // no transforms
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  singleSymbolCode(bits, colour.green);
  singleSymbolCode(bits, colour.red);
  singleSymbolCode(bits, colour.blue);
  singleSymbolCode(bits, colour.alpha);
  // Distance code: one symbol written with 1 bit.
  bits.write(1, 1);
  bits.write(0, 1);
  bits.write(0, 1);
  bits.write(0, 1);
  return bits.finish();
}

export function webpImage(colour: WebpColour = { alpha: 255, red: 0x20, green: 0x80, blue: 0xc0 }): Uint8Array {
  const payload = vp8lBitstream(colour);
  const padding = new Uint8Array(payload.length % 2); // RIFF chunks are padded to an even length
  const vp8l = concatBytes([latin1('VP8L'), u32le(payload.length), payload, padding]);
  return concatBytes([latin1('RIFF'), u32le(4 + vp8l.length), latin1('WEBP'), vp8l]);
}
