// What the bytes of an upload are, by magic numbers (file-type), in the terms of the accepted types.
// file-type is loaded on the first upload, not at start: it is a large import that a server
// answering decisions on text never needs.
let fileTypeLoading: Promise<typeof import('file-type')> | undefined;

/**
 * file-type reports a few accepted formats under other names: Ogg Opus as
 * "audio/ogg; codecs=opus" and animated PNG as "image/apng" (an APNG is a valid PNG).
 */
function asAcceptedName(detected: string): string {
  const bare = detected.split(';', 1)[0]!.trim();
  return bare === 'image/apng' ? 'image/png' : bare;
}

/** The sniffed MIME type, or undefined when no binary signature matches (plain text sniffs as nothing). */
export async function sniffMimeType(bytes: Uint8Array): Promise<string | undefined> {
  fileTypeLoading ??= import('file-type');
  const detected = await (await fileTypeLoading).fileTypeFromBuffer(bytes);
  return detected ? asAcceptedName(detected.mime) : undefined;
}

/**
 * Sniffed types that are themselves text (XML, vCard, WebVTT, iCalendar, RTF): such content may
 * still be uploaded as text/plain, text/markdown or text/html when it is valid UTF-8.
 */
export function isTextualType(type: string): boolean {
  return type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml') || type === 'application/rtf';
}
