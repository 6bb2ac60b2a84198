// Text uploads: what counts as text (valid UTF-8, no NUL bytes) and what a decision reads from it.
import { isUtf8 } from 'node:buffer';

/** Valid UTF-8 with no NUL byte: NULs mark UTF-16 or binary data even where UTF-8 would allow them. */
export function isUtf8Text(bytes: Uint8Array): boolean {
  // Validated in place: an upload of tens of megabytes is not decoded into a string to be thrown away.
  return !bytes.includes(0) && isUtf8(bytes);
}

export function startsWithUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** The text, without a leading byte order mark. Invalid sequences (not expected here) become U+FFFD. */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}
