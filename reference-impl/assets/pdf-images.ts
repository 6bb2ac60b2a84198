// What the images inside a PDF declare, read from the file's bytes without pdf.js: each image
// XObject is a stream whose dictionary (never inside an object stream, PDF 32000 7.5.7) names
// /Subtype /Image with its /Width and /Height, numbers or references to numbers. For a JPEG image
// (DCTDecode, alone or after FlateDecode) the JPEG's own frame header counts too, as pdf.js
// decodes it at that size whatever the dictionary says.
//
// The scan is a guard before decoding, not a parser: an image it cannot see (inside a compressed
// content stream, as an inline image) is still bounded by pdf.js's maxImageSize when the page is
// read (reading/pdf-worker.mjs), and by the decode budget's watchdog. Its own cost is bounded
// too: windows of a few kilobytes around each image dictionary, the first MAX_IMAGES of them, and
// one pass over the file to resolve references.
import { constants, inflateSync } from 'node:zlib';
import { declaredImageSize } from './memory-limits.ts';

export interface PdfImageScan {
  /** The most pixels any image declares (0 without images). */
  largestPixels: number;
  /** The first image over `maxPixels`, if any. */
  over?: { width: number; height: number };
}

const WINDOW = 4096;
const JPEG_HEAD = 65536;
const MAX_IMAGES = 4096;

/** The JPEG frame size of a DCTDecode stream starting at `at`, inflated first when FlateDecode precedes DCTDecode. */
function jpegFrameSize(bytes: Uint8Array, at: number, inflated: boolean): { width: number; height: number } | undefined {
  const head = bytes.subarray(at, Math.min(bytes.length, at + JPEG_HEAD));
  try {
    return declaredImageSize(inflated ? inflateSync(head, { finishFlush: constants.Z_SYNC_FLUSH }) : head);
  } catch {
    return undefined;
  }
}

export function scanPdfImages(bytes: Uint8Array, maxPixels: number): PdfImageScan {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const scan: PdfImageScan = { largestPixels: 0 };
  /** Objects that are a bare integer ("12 0 obj 3000 endobj"), indexed on the first reference met. */
  let integers: Map<string, number> | undefined;
  const numberAt = (dictionary: string, key: string): number | undefined => {
    const match = new RegExp(`/${key}\\s+(\\d+)(?:\\s+(\\d+)\\s+R)?`).exec(dictionary);
    if (!match) return undefined;
    if (match[2] === undefined) return Number(match[1]);
    integers ??= new Map(Array.from(text.matchAll(/(\d+)\s+(\d+)\s+obj\s*(\d+)\s*endobj/g), (found) => [`${found[1]} ${found[2]}`, Number(found[3])]));
    return integers.get(`${Number(match[1])} ${Number(match[2])}`);
  };
  let seen = 0;
  for (const match of text.matchAll(/\/Subtype\s*\/Image\b/g)) {
    if (++seen > MAX_IMAGES) break;
    const at = match.index;
    const before = Math.max(0, at - WINDOW);
    const objectAt = text.slice(before, at).lastIndexOf('obj');
    const after = text.slice(at, at + WINDOW);
    const streamAt = after.indexOf('stream');
    const dictionary = text.slice(objectAt === -1 ? before : before + objectAt, streamAt === -1 ? at + after.length : at + streamAt);
    const width = numberAt(dictionary, 'Width') ?? 0;
    const height = numberAt(dictionary, 'Height') ?? 0;
    let size = { width, height };
    if (/\/DCTDecode\b/.test(dictionary) && streamAt !== -1) {
      const keyword = at + streamAt + 6;
      const frame = jpegFrameSize(bytes, keyword + (text[keyword] === '\r' ? 2 : 1), /\/FlateDecode\b/.test(dictionary));
      if (frame && frame.width * frame.height > width * height) size = frame;
    }
    const pixels = size.width * size.height;
    if (pixels > scan.largestPixels) scan.largestPixels = pixels;
    if (pixels > maxPixels && !scan.over) scan.over = size;
  }
  return scan;
}
