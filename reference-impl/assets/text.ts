// Text uploads: what counts as text (valid UTF-8, no NUL bytes) and what a decision reads from it.

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Valid UTF-8 with no NUL byte: NULs mark UTF-16 or binary data even where UTF-8 would allow them. */
export function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export function startsWithUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** The text, without a leading byte order mark. Invalid sequences (not expected here) become U+FFFD. */
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}
