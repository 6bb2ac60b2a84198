// Checks an upload before it becomes an asset (seed 4.5 and 8): the declared type is accepted, the
// bytes are that type, the file is within its family's limits and can be decoded.
//
// Order of checks, cheapest first, each failure ending the inspection:
//   empty body                        400 INVALID_REQUEST
//   declared type not accepted        415 UNSUPPORTED_MIME_TYPE
//   over the family's size limit      413 ASSET_TOO_LARGE
//   content is not the declared type  415 UNSUPPORTED_MIME_TYPE
//   cannot be decoded                 DECODE_FAILED            (reference status, name-only code)
//   PDF/DOCX over the page limit      DOCUMENT_TOO_MANY_PAGES  (reference status, name-only code)
//   audio over the duration limit     AUDIO_TOO_LONG           (reference status, name-only code)
//   over a reading limit              DECODE_FAILED            (the memory ceiling, memory-limits.ts:
//                                     declared pixels, PDF image pixels, inflated DOCX parts,
//                                     decoded audio samples; the message names the limit)
import { audioFormat } from './duration.ts';
import { bareMediaType, printableMediaType } from './content-type.ts';
import { docxPageCount } from './docx-pages.ts';
import { familyOfMimeType, isAcceptedMimeType } from '../../spec/index.ts';
import { familyLimits, textMimeTypes, type AcceptedMimeType, type AssetFamily } from './families.ts';
import { decodableImageSize } from './image-structure.ts';
import { limitMessages, MAX_AUDIO_SAMPLES, MAX_IMAGE_PIXELS, MAX_PDF_IMAGE_PIXELS } from './memory-limits.ts';
import { scanPdfImages } from './pdf-images.ts';
import { pdfPageCount } from './pdf-pages.ts';
import { isTextualType, sniffMimeType } from './sniff.ts';
import { isUtf8Text, startsWithUtf16Bom } from './text.ts';
import { uploadRejection, type UploadRejection } from './upload-failures.ts';

export { extractText } from './extract-text.ts';

export interface AcceptedUpload {
  ok: true;
  /** The bare declared type, which the content was found to match: the asset's mime_type. */
  mimeType: AcceptedMimeType;
  family: AssetFamily;
  /** PDF and DOCX only. */
  pages?: number;
  /** Audio only. */
  durationSeconds?: number;
}

export type UploadVerdict = AcceptedUpload | UploadRejection;

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Tenths of a second, unless rounding would make an over-limit duration look within it (30.04 stays 30.04). */
function formatSeconds(seconds: number, limit: number): string {
  const tenths = Math.round(seconds * 10) / 10;
  return String(tenths > limit ? tenths : seconds);
}

/** Does the content match the declared type? Returns the rejection when it does not. */
async function contentMismatch(bytes: Uint8Array, declared: AcceptedMimeType): Promise<UploadRejection | undefined> {
  // file-type takes the UTF-16 byte order mark FF FE for an MPEG audio frame sync.
  if (textMimeTypes.has(declared) && startsWithUtf16Bom(bytes)) {
    return uploadRejection('UNSUPPORTED_MIME_TYPE', `Declared ${declared}, but the content is not UTF-8 text.`);
  }
  const sniffed = await sniffMimeType(bytes);
  if (textMimeTypes.has(declared)) {
    if (sniffed !== undefined && !isTextualType(sniffed)) {
      return uploadRejection('UNSUPPORTED_MIME_TYPE', `Declared ${declared}, but the content is ${sniffed}.`);
    }
    if (!isUtf8Text(bytes)) {
      return uploadRejection('UNSUPPORTED_MIME_TYPE', `Declared ${declared}, but the content is not UTF-8 text.`);
    }
    return undefined;
  }
  if (sniffed === declared) return undefined;
  const actual = sniffed ?? (isUtf8Text(bytes) ? 'text' : 'of no recognised type');
  return uploadRejection('UNSUPPORTED_MIME_TYPE', `Declared ${declared}, but the content is ${actual}.`);
}

const cannotDecode = (type: AcceptedMimeType): UploadRejection => uploadRejection('DECODE_FAILED', `The ${type} file could not be decoded.`);

async function documentVerdict(bytes: Uint8Array, type: AcceptedMimeType): Promise<UploadVerdict> {
  if (textMimeTypes.has(type)) return { ok: true, mimeType: type, family: 'document' };
  let pages: number | undefined;
  if (type === docxType) {
    const counted = await docxPageCount(bytes);
    if ('failure' in counted)
      return counted.failure === 'over-limit' ? uploadRejection('DECODE_FAILED', limitMessages.docxPart(counted.part)) : cannotDecode(type);
    pages = counted.pages;
  } else {
    pages = await pdfPageCount(bytes);
  }
  if (pages === undefined) return cannotDecode(type);
  const maxPages = familyLimits('document').maxPages;
  if (maxPages !== undefined && pages > maxPages) {
    return uploadRejection('DOCUMENT_TOO_MANY_PAGES', `Documents are limited to ${maxPages} pages; got ${pages}.`);
  }
  if (type === 'application/pdf') {
    const images = scanPdfImages(bytes, MAX_PDF_IMAGE_PIXELS);
    if (images.over) return uploadRejection('DECODE_FAILED', limitMessages.pdfImagePixels(images.over.width, images.over.height));
  }
  return { ok: true, mimeType: type, family: 'document', pages };
}

async function audioVerdict(bytes: Uint8Array, type: AcceptedMimeType): Promise<UploadVerdict> {
  const format = await audioFormat(bytes, type);
  if (format === undefined) return cannotDecode(type);
  const { durationSeconds, sampleRate, channels } = format;
  const maxSeconds = familyLimits('audio').maxSeconds;
  if (maxSeconds !== undefined && durationSeconds > maxSeconds) {
    return uploadRejection('AUDIO_TOO_LONG', `Audio is limited to ${maxSeconds} s; got ${formatSeconds(durationSeconds, maxSeconds)} s.`);
  }
  // What decoding will produce, as the headers declare it; the decoder stops there too if they lie.
  if (sampleRate !== undefined && channels !== undefined && durationSeconds * sampleRate * channels > MAX_AUDIO_SAMPLES) {
    return uploadRejection('DECODE_FAILED', limitMessages.audioSamples(durationSeconds, sampleRate, channels));
  }
  return { ok: true, mimeType: type, family: 'audio', durationSeconds };
}

function imageVerdict(bytes: Uint8Array, type: AcceptedMimeType): UploadVerdict {
  const size = decodableImageSize(bytes, type as 'image/png' | 'image/jpeg' | 'image/webp');
  if (!size) return cannotDecode(type);
  // Declared dimensions, before anything decodes a pixel: a few hundred kilobytes can declare billions.
  if (size.width * size.height > MAX_IMAGE_PIXELS) return uploadRejection('DECODE_FAILED', limitMessages.imagePixels(size.width, size.height));
  return { ok: true, mimeType: type, family: 'image' };
}

/** `maxBytesOf`: each family's file size limit (open point size-units; the reference reading by default). */
export async function inspectUpload(
  bytes: Uint8Array,
  declaredContentType: string | undefined,
  maxBytesOf: (family: AssetFamily) => number = (family) => familyLimits(family).maxBytes,
): Promise<UploadVerdict> {
  if (bytes.length === 0) return uploadRejection('INVALID_REQUEST', 'The request body (the raw file) is required.');

  const declared = bareMediaType(declaredContentType);
  if (declared === undefined) {
    return uploadRejection('UNSUPPORTED_MIME_TYPE', 'Content-Type is required: the MIME type of the file.');
  }
  if (!isAcceptedMimeType(declared)) {
    const shown = printableMediaType(declared);
    return uploadRejection('UNSUPPORTED_MIME_TYPE', shown ? `${shown} is not an accepted type.` : 'The Content-Type is not an accepted type.');
  }

  const family = familyOfMimeType(declared);
  const maxBytes = maxBytesOf(family);
  if (bytes.length > maxBytes) {
    return uploadRejection('ASSET_TOO_LARGE', `${declared} files are limited to ${maxBytes} bytes; got ${bytes.length}.`);
  }

  const mismatch = await contentMismatch(bytes, declared);
  if (mismatch) return mismatch;

  switch (family) {
    case 'image':
      return imageVerdict(bytes, declared);
    case 'document':
      return documentVerdict(bytes, declared);
    case 'audio':
      return audioVerdict(bytes, declared);
  }
}
