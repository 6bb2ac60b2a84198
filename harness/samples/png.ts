// A real PNG: IHDR, zlib-compressed IDAT (node:zlib), IEND, each chunk with its CRC-32.
import { deflateSync } from 'node:zlib';
import { concatBytes, latin1, u32be } from './bytes.ts';
import { crc32 } from './checksums.ts';

const signature = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface PngOptions {
  width?: number;
  height?: number;
  /** Total file size in bytes; reached with a tEXt comment chunk, which every decoder may ignore. */
  totalBytes?: number;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typeAndData = concatBytes([latin1(type), data]);
  return concatBytes([u32be(data.length), typeAndData, u32be(crc32(typeAndData))]);
}

/** 8-bit RGB, a diagonal gradient so the image is not a single flat colour. */
function scanlines(width: number, height: number): Uint8Array {
  const rowLength = 1 + width * 3;
  const raw = new Uint8Array(rowLength * height);
  for (let y = 0; y < height; y += 1) {
    raw[y * rowLength] = 0; // filter type None
    for (let x = 0; x < width; x += 1) {
      const at = y * rowLength + 1 + x * 3;
      raw[at] = (x * 32) & 0xff;
      raw[at + 1] = (y * 32) & 0xff;
      raw[at + 2] = 0x80;
    }
  }
  return raw;
}

export function pngImage(options: PngOptions = {}): Uint8Array {
  const width = options.width ?? 4;
  const height = options.height ?? 4;
  const header = concatBytes([u32be(width), u32be(height), new Uint8Array([8, 2, 0, 0, 0])]);
  const picture = concatBytes([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(scanlines(width, height), { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
  return options.totalBytes === undefined ? picture : withPngComment(picture, options.totalBytes);
}

/**
 * A PNG (one that ends with its 12-byte IEND chunk, as encoders write it) made `totalBytes` long
 * by a tEXt comment chunk before IEND: the same picture, the metadata of a real photograph's size.
 */
export function withPngComment(png: Uint8Array, totalBytes: number): Uint8Array {
  const body = png.subarray(0, png.length - 12);
  const keyword = latin1('Comment\0');
  const fill = totalBytes - png.length - 12 - keyword.length;
  if (fill < 0) throw new RangeError(`A PNG cannot be smaller than ${png.length + 12 + keyword.length} bytes`);
  return concatBytes([body, chunk('tEXt', concatBytes([keyword, new Uint8Array(fill).fill(0x20)])), png.subarray(png.length - 12)]);
}
