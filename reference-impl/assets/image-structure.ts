// Whether an image can be decoded: its container is intact, and its dimensions, read by the
// image-size package, are not zero. Pixels are decoded later, by whatever reads the image.
//
// The container check stays hand-written because image-size reads the header and nothing
// after it: it gave dimensions for each of the broken images of the tests, 4 of 4 (a PNG cut in
// half, a PNG whose IHDR CRC is wrong, a JPEG cut at 100 bytes, a WebP cut in half), which an
// upload must refuse with DECODE_FAILED. It checks what a decoder would stumble on first:
// chunk lengths and CRCs (PNG), complete segments up to the scan (JPEG), the RIFF length and
// the VP8 / VP8L signatures (WebP; image-size does not check them).
import { imageSize } from 'image-size';
import { crc32 } from 'node:zlib';

export interface ImageSize {
  width: number;
  height: number;
}

type ImageMimeType = 'image/png' | 'image/jpeg' | 'image/webp';

/** The type names image-size gives the three accepted image types. */
const imageSizeTypes: Readonly<Record<ImageMimeType, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

/** Every chunk complete with a matching CRC, IHDR first, at least one IDAT, IEND last. */
function pngIntact(bytes: Uint8Array): boolean {
  if (!pngSignature.every((byte, i) => bytes[i] === byte)) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let sawImageData = false;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = ascii(bytes, at + 4, 4);
    const end = at + 12 + length;
    if (end > bytes.length) return false;
    if (view.getUint32(end - 4) !== crc32(bytes.subarray(at + 4, end - 4))) return false;
    if (at === 8 && (type !== 'IHDR' || length !== 13)) return false;
    if (type === 'IDAT') sawImageData = true;
    if (type === 'IEND') return sawImageData;
    at = end;
  }
  return false;
}

const startOfFrameMarkers = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Complete segments, among them a frame header (SOFn), up to a start of scan. */
function jpegIntact(bytes: Uint8Array): boolean {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return false;
  let at = 2;
  let sawFrame = false;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return false;
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
    if (length < 2 || at + 2 + length > bytes.length) return false;
    if (startOfFrameMarkers.has(marker)) {
      if (length < 8) return false;
      sawFrame = true;
    }
    if (marker === 0xda) return sawFrame;
    if (marker === 0xd9) return false;
    at += 2 + length;
  }
  return false;
}

/** A complete RIFF container whose first chunk is a whole VP8, VP8L or VP8X header, with its signature. */
function webpIntact(bytes: Uint8Array): boolean {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(4, true) + 8 > bytes.length) return false; // truncated
  const chunk = ascii(bytes, 12, 4);
  if (20 + view.getUint32(16, true) > bytes.length) return false;
  const data = 20;
  if (chunk === 'VP8L') return bytes[data] === 0x2f;
  if (chunk === 'VP8 ') return bytes[data + 3] === 0x9d && bytes[data + 4] === 0x01 && bytes[data + 5] === 0x2a;
  return chunk === 'VP8X';
}

const intact: Readonly<Record<ImageMimeType, (bytes: Uint8Array) => boolean>> = { 'image/png': pngIntact, 'image/jpeg': jpegIntact, 'image/webp': webpIntact };

/** The image's dimensions, or undefined when its container is broken or a dimension is zero. */
export function decodableImageSize(bytes: Uint8Array, mimeType: ImageMimeType): ImageSize | undefined {
  if (!intact[mimeType](bytes)) return undefined;
  try {
    const { width, height, type } = imageSize(bytes);
    return type === imageSizeTypes[mimeType] && width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    return undefined; // image-size throws on a header it cannot read
  }
}
