// A PNG without its metadata chunks, for OCR. The engine's PNG decoder (libpng inside Tesseract's
// WebAssembly build) refuses any chunk it keeps in memory above 8 MB ("tEXt: chunk data is too
// large"), so a valid picture carrying a large comment, EXIF block or colour profile, well within
// the seed's image size limit, was not read at all and its decide answered 500 VISION_FAILED.
// Those chunks say nothing about the pixels the engine reads: they are dropped, and every other
// chunk is kept byte for byte.
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Text, EXIF, the ICC colour profile and suggested palettes: libpng stores them, leptonica never reads them for pixels. */
const METADATA = new Set(['tEXt', 'zTXt', 'iTXt', 'eXIf', 'iCCP', 'sPLT']);

/**
 * A copy of `bytes` without the metadata chunks, when they are a PNG whose chunks can be walked
 * and that has some; otherwise undefined: `bytes` are left for the engine to read or refuse as before.
 */
export function withoutPngMetadata(bytes: Uint8Array): Buffer | undefined {
  if (bytes.length < 8 || SIGNATURE.some((byte, at) => bytes[at] !== byte)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept: Uint8Array[] = [bytes.subarray(0, 8)];
  let dropped = false;
  for (let at = 8; at < bytes.length; ) {
    if (at + 12 > bytes.length) return undefined;
    const end = at + 12 + view.getUint32(at);
    if (end > bytes.length) return undefined;
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (METADATA.has(type)) dropped = true;
    else kept.push(bytes.subarray(at, end));
    at = end;
  }
  return dropped ? Buffer.concat(kept) : undefined;
}
