// Valid files of an accepted type grown to an exact size, for the upload cases at a family's size
// limit and one byte past it: the size is then the only thing that differs from a file that passes.
import { pngImage, wavSeconds, type SampleMimeType } from '../harness/samples/media.ts';
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
 * A valid file of `type` of exactly `bytes` bytes, or undefined when the kit cannot grow one of
 * this type to an exact size (a WAV, whose chunks have even lengths, of an odd size included).
 */
export function sampleOfSize(type: SampleMimeType, bytes: number): Uint8Array | undefined {
  switch (type) {
    case 'image/png':
      return pngImage({ totalBytes: bytes });
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

/** The types sampleOfSize can grow, for the untestable list's reason. */
export const SIZABLE_TYPES: readonly string[] = ['image/png', 'text/plain', 'text/markdown', 'text/html', 'audio/wav'];
