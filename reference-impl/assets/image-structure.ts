// Whether an image's container is intact enough to decode: the header that gives its dimensions
// is present and consistent. Pixels are decoded later, by whatever reads the image.
import { crc32 } from 'node:zlib';

export interface ImageSize {
  width: number;
  height: number;
}

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

/** Every chunk complete with a matching CRC, IHDR first, at least one IDAT, IEND last. */
function pngSize(bytes: Uint8Array): ImageSize | undefined {
  if (!pngSignature.every((byte, i) => bytes[i] === byte)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let size: ImageSize | undefined;
  let sawImageData = false;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = ascii(bytes, at + 4, 4);
    const end = at + 12 + length;
    if (end > bytes.length) return undefined;
    if (view.getUint32(end - 4) !== crc32(bytes.subarray(at + 4, end - 4))) return undefined;
    if (at === 8) {
      if (type !== 'IHDR' || length !== 13) return undefined;
      size = { width: view.getUint32(at + 8), height: view.getUint32(at + 12) };
    }
    if (type === 'IDAT') sawImageData = true;
    if (type === 'IEND') return size && sawImageData && size.width > 0 && size.height > 0 ? size : undefined;
    at = end;
  }
  return undefined;
}

const startOfFrameMarkers = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** A frame header (SOFn) with non-zero dimensions, followed by a start of scan. */
function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  let size: ImageSize | undefined;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (length < 2 || at + 2 + length > bytes.length) return undefined;
    if (startOfFrameMarkers.has(marker)) {
      if (length < 8) return undefined;
      size = { height: (bytes[at + 5]! << 8) | bytes[at + 6]!, width: (bytes[at + 7]! << 8) | bytes[at + 8]! };
    }
    if (marker === 0xda) return size && size.width > 0 && size.height > 0 ? size : undefined;
    if (marker === 0xd9) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/** A complete RIFF container whose first chunk is a VP8, VP8L or VP8X header. */
function webpSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(4, true) + 8 > bytes.length) return undefined; // truncated
  const chunk = ascii(bytes, 12, 4);
  const chunkLength = view.getUint32(16, true);
  if (20 + chunkLength > bytes.length) return undefined;
  const data = 20;
  if (chunk === 'VP8L') {
    if (bytes[data] !== 0x2f) return undefined;
    const bits = view.getUint32(data + 1, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') {
    if (bytes[data + 3] !== 0x9d || bytes[data + 4] !== 0x01 || bytes[data + 5] !== 0x2a) return undefined;
    const width = view.getUint16(data + 6, true) & 0x3fff;
    const height = view.getUint16(data + 8, true) & 0x3fff;
    return width > 0 && height > 0 ? { width, height } : undefined;
  }
  if (chunk === 'VP8X') {
    const width = 1 + (bytes[data + 4]! | (bytes[data + 5]! << 8) | (bytes[data + 6]! << 16));
    const height = 1 + (bytes[data + 7]! | (bytes[data + 8]! << 8) | (bytes[data + 9]! << 16));
    return { width, height };
  }
  return undefined;
}

/** The image's dimensions, or undefined when its container is broken. */
export function imageSize(bytes: Uint8Array, mimeType: 'image/png' | 'image/jpeg' | 'image/webp'): ImageSize | undefined {
  switch (mimeType) {
    case 'image/png':
      return pngSize(bytes);
    case 'image/jpeg':
      return jpegSize(bytes);
    case 'image/webp':
      return webpSize(bytes);
  }
}
