// The reference server's memory ceiling under media, and the limits that keep it (reference
// choice; the seed limits file sizes only, and a few hundred kilobytes of PNG can declare
// billions of pixels). reference-impl/README.md ("Memory ceiling") says why each number.
//
// Ceiling: while any mix of files within the upload limits is read, the process's resident set
// stays within MEMORY_CEILING_BYTES of what it was idle, and is back within SETTLED_BYTES of it
// once reading stops (idle worker threads end after IDLE_WORKER_MS).
//
// Every limit is checked from what a file declares (image headers, PDF image dictionaries, zip
// directory sizes, audio headers) before anything is decoded: at upload, where the check refuses
// the file, and again when a decision reads it (for files stored before a limit existed, and for
// headers that lie, each decoder also stops at the limit). Decoding then runs under a shared
// budget (reading/decode-budget.ts): each decode reserves its estimate, computed from the same
// declarations, and waits its turn while the others' estimates fill the budget. A watchdog
// enforces the ceiling where estimates fall short (a picture of noise costs OCR far more than a
// page of text of the same size).
import { imageSize } from 'image-size';

const MiB = 1024 * 1024;

/** Peak resident set above idle while media are read. */
export const MEMORY_CEILING_BYTES = 512 * MiB;
/** Resident set above idle once reading has stopped and idle workers have ended. */
export const SETTLED_BYTES = 64 * MiB;
/** Estimates of the decodes running at once (reading/decode-budget.ts). */
export const DECODE_BUDGET_BYTES = 320 * MiB;
/** Resident set above idle at which the watchdog ends idle workers, then running decodes. */
export const WATCHDOG_BYTES = 448 * MiB;
/** Worker threads (OCR, PDF, audio) idle this long are ended, and their memory with them. */
export const IDLE_WORKER_MS = 5_000;

/** One picture (image part, page image): width × height as its header declares them. */
export const MAX_IMAGE_PIXELS = 20_000_000;
/** All distinct pictures one decision reads (image parts and page images). */
export const MAX_REQUEST_PIXELS = 60_000_000;
/** One image inside a PDF page, as its dictionary (or its JPEG frame) declares it; pdf.js leaves out larger ones it meets. */
export const MAX_PDF_IMAGE_PIXELS = 12_000_000;
/** A PDF page without a text layer is rendered for OCR within this many pixels (300 dpi at most). */
export const MAX_PDF_RENDER_PIXELS = 9_000_000;
/** A DOCX part read (word/document.xml, docProps/app.xml) inflates to at most this. */
export const MAX_DOCX_PART_BYTES = 16 * MiB;
/** Text read from one document (PDF text layers, DOCX runs). */
export const MAX_READ_TEXT_CHARS = 1_000_000;
/** Decoded samples of one clip: duration × sample rate × channels (30 s of 192 kHz stereo fits). */
export const MAX_AUDIO_SAMPLES = 12_000_000;

/** Estimated peak bytes of OCR per pixel (tesseract decodes colour to 32 bits and keeps grey and binary copies); half for grey pictures. */
const OCR_BYTES_PER_PIXEL = 16;
/** Estimated peak bytes of drawing one PDF image per pixel (decoded, converted to RGB, copied, drawn). */
const PDF_IMAGE_BYTES_PER_PIXEL = 12;
/** The canvas of a rendered page, its grey copy and its PNG. */
const PDF_RENDER_BYTES_PER_PIXEL = 8;
/** A decoded sample: the decoder's copy and the Float32Array handed over. */
const AUDIO_BYTES_PER_SAMPLE = 8;
const BASE_ESTIMATE = 16 * MiB;

export const ocrEstimate = (pixels: number, grey = false): number => BASE_ESTIMATE + (grey ? OCR_BYTES_PER_PIXEL / 2 : OCR_BYTES_PER_PIXEL) * pixels;
/** Reading a PDF: drawing its largest image on a rendered page, and OCR of that page (grey), which runs while the PDF is open. */
export const pdfEstimate = (largestImagePixels: number, renderPixels = MAX_PDF_RENDER_PIXELS): number =>
  BASE_ESTIMATE +
  PDF_IMAGE_BYTES_PER_PIXEL * Math.min(largestImagePixels, MAX_PDF_IMAGE_PIXELS) +
  PDF_RENDER_BYTES_PER_PIXEL * renderPixels +
  ocrEstimate(renderPixels, true);
export const audioEstimate = (samples = MAX_AUDIO_SAMPLES): number => BASE_ESTIMATE + AUDIO_BYTES_PER_SAMPLE * samples;
/** The inflated part, its text as a string (two bytes a character at worst) and the text read from it. */
export const docxEstimate = (inflatedBytes: number): number => BASE_ESTIMATE + 4 * inflatedBytes;

const grouped = (value: number): string => value.toLocaleString('en-US');
const mib = (bytes: number): string => `${bytes / MiB} MiB`;

/** Messages of refusals: they name the limit and what the file declares, never its content (seed 2.5). */
export const limitMessages = {
  imagePixels: (width: number, height: number) =>
    `Images are read up to ${grouped(MAX_IMAGE_PIXELS)} pixels (width × height); this one declares ${width} × ${height}.`,
  requestPixels: (pixels: number) =>
    `The pictures of one request are read up to ${grouped(MAX_REQUEST_PIXELS)} pixels in all; these declare ${grouped(pixels)}.`,
  pdfImagePixels: (width: number, height: number) =>
    `Images inside a PDF are read up to ${grouped(MAX_PDF_IMAGE_PIXELS)} pixels (width × height); this file has one of ${width} × ${height}.`,
  docxPart: (part: string) => `DOCX parts are read up to ${mib(MAX_DOCX_PART_BYTES)} inflated; ${part} inflates to more.`,
  text: () => `Text read from one document is limited to ${grouped(MAX_READ_TEXT_CHARS)} characters; this file has more.`,
  audioSamples: (seconds: number, sampleRate: number, channels: number) =>
    `Audio is decoded up to ${grouped(MAX_AUDIO_SAMPLES)} samples (duration × sample rate × channels); this clip declares ${Number(seconds.toFixed(3))} s × ${sampleRate} Hz × ${channels} channels.`,
  audioDecoded: () => `Audio is decoded up to ${grouped(MAX_AUDIO_SAMPLES)} samples (duration × sample rate × channels); this clip holds more.`,
  memory: () => `Reading this file needed more memory than the server allows one file (${mib(WATCHDOG_BYTES)} above idle).`,
};

/** Width and height a PNG, JPEG or WebP header declares, or undefined when unreadable. */
export function declaredImageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a PNG or JPEG header declares grey pixels (one channel, with or without alpha); WebP is always colour. */
export function isGreyPicture(bytes: Uint8Array): boolean {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return bytes[25] === 0 || bytes[25] === 4; // IHDR colour type
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return false;
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) return false;
    const marker = bytes[at + 1]!;
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    // A frame header (SOF0 to SOF15 but DHT, JPG and DAC): its component count follows the dimensions.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return bytes[at + 9] === 1;
    at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
  }
  return false;
}

export const isPictureType = (mimeType: string): boolean => mimeType === 'image/png' || mimeType === 'image/jpeg' || mimeType === 'image/webp';
