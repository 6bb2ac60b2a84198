// What a decision reads from a text asset. PDF and DOCX text, OCR and speech transcription are
// separate, later steps; for those types this returns undefined.
import { bareMediaType } from './content-type.ts';
import { htmlToText } from './html-text.ts';
import { decodeText } from './text.ts';

export function extractText(bytes: Uint8Array, mimeType: string): string | undefined {
  switch (bareMediaType(mimeType)) {
    case 'text/plain':
    case 'text/markdown':
      return decodeText(bytes);
    case 'text/html':
      return htmlToText(decodeText(bytes));
    default:
      return undefined;
  }
}
