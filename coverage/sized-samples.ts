// Valid files of an accepted type grown to an exact size, for the upload cases at a family's size
// limit and one byte past it: the size is then the only thing that differs from a file that passes.
import { flacSeconds, jpegImage, mp3Seconds, pdfWithPages, pngImage, wavSeconds, type SampleMimeType } from '../harness/samples/media.ts';
import { htmlSample, markdownSample, plainTextOfSize, textBytes } from '../harness/samples/text.ts';

/** A text file of exactly `bytes` bytes: the sample, then blank lines (what a long document ends with). */
function paddedText(sample: string, bytes: number): Uint8Array {
  const head = textBytes(sample);
  if (bytes < head.byteLength) return head.slice(0, bytes);
  const padded = new Uint8Array(bytes).fill(0x0a);
  padded.set(head);
  return padded;
}

/**
 * A valid file of `type` of exactly `bytes` bytes, grown with what its readers skip (a PNG text
 * chunk, JPEG comments, an unreferenced PDF object, an ID3 tag, a FLAC padding block, a WAV JUNK
 * chunk, blank lines), or undefined when the kit cannot grow one of this type to an exact size
 * (WebP, DOCX, Ogg; a WAV, whose chunks have even lengths, of an odd size).
 */
export function sampleOfSize(type: SampleMimeType, bytes: number): Uint8Array | undefined {
  switch (type) {
    case 'image/png':
      return pngImage({ totalBytes: bytes });
    case 'image/jpeg':
      return jpegImage({ totalBytes: bytes });
    case 'application/pdf':
      return pdfWithPages(1, { totalBytes: bytes });
    case 'audio/mpeg':
      return mp3Seconds(1, { totalBytes: bytes });
    case 'audio/flac':
      return flacSeconds(1, { totalBytes: bytes });
    case 'text/plain':
      return plainTextOfSize(bytes);
    case 'text/markdown':
      return paddedText(markdownSample, bytes);
    case 'text/html':
      return paddedText(htmlSample, bytes);
    case 'audio/wav':
      return bytes % 2 === 0 ? wavSeconds(1, { totalBytes: bytes }) : undefined;
    default:
      return undefined;
  }
}

/**
 * The size sampleOfSize grows a file of `type` to for `bytes`: `bytes` itself, or for a WAV the even
 * size at or just above it; undefined when the kit cannot grow a file of the type. Nothing is built.
 */
export function reachableSize(type: string, bytes: number): number | undefined {
  if (!SIZABLE_TYPES.includes(type)) return undefined;
  return type === 'audio/wav' && bytes % 2 === 1 ? bytes + 1 : bytes;
}

/** The types sampleOfSize can grow, for the untestable list's reason. */
export const SIZABLE_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/html',
  'audio/mpeg',
  'audio/flac',
  'audio/wav',
];
