// What a decision reads from a text asset (text/plain, text/markdown, text/html); undefined for
// any other type. The other readers (PDF, DOCX, OCR) are in reading/, which calls this one.
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
