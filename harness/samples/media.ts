// Tiny valid files of each of the twelve accepted upload types, built in code and deterministic
// (the same bytes on every run and machine), plus the failure cases a suite uploads. No server
// code here: the conformance suite sends these to whatever server it judges.
import { docxWithPages } from './docx.ts';
import { flacSeconds } from './flac.ts';
import { jpegImage } from './jpeg.ts';
import { acceptedMimeTypes, sizeLimitReadings, type SampleFamily, type SampleMimeType } from './limits.ts';
import { mp3Seconds } from './mp3.ts';
import { oggOpusSeconds } from './ogg.ts';
import { pdfWithPages } from './pdf.ts';
import { pngImage } from './png.ts';
import { htmlSample, markdownSample, plainTextOfSize, plainTextSample, textBytes } from './text.ts';
import { wavClip, wavSeconds } from './wav.ts';
import { webpImage } from './webp.ts';

export { docxWithPages, flacSeconds, jpegImage, mp3Seconds, oggOpusSeconds, pdfWithPages, pngImage, wavClip, wavSeconds, webpImage };
export { acceptedMimeTypes, familyOfType, sizeLimitReadings, maxAudioSeconds, maxDocumentPages } from './limits.ts';
export type { SampleFamily, SampleMimeType, SizeLimitReadings } from './limits.ts';
export { htmlSample, markdownSample, plainTextSample } from './text.ts';

export interface SampleOptions {
  /** PDF and DOCX: number of pages (default 1). */
  pages?: number;
  /** Audio: duration in seconds (default 1). */
  seconds?: number;
}

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A fresh copy of a valid file of `mimeType`. */
export function sampleFor(mimeType: SampleMimeType, options: SampleOptions = {}): Uint8Array {
  const pages = options.pages ?? 1;
  const seconds = options.seconds ?? 1;
  switch (mimeType) {
    case 'image/png':
      return pngImage();
    case 'image/jpeg':
      return jpegImage();
    case 'image/webp':
      return webpImage();
    case 'application/pdf':
      return pdfWithPages(pages);
    case docxType:
      return docxWithPages(pages);
    case 'text/plain':
      return textBytes(plainTextSample);
    case 'text/markdown':
      return textBytes(markdownSample);
    case 'text/html':
      return textBytes(htmlSample);
    case 'audio/wav':
      return wavSeconds(seconds);
    case 'audio/mpeg':
      return mp3Seconds(seconds);
    case 'audio/flac':
      return flacSeconds(seconds);
    case 'audio/ogg':
      return oggOpusSeconds(seconds);
  }
}

/** One valid file per accepted type, built once. Shared: copy before changing any of them. */
export const acceptedSamples: Readonly<Record<SampleMimeType, Uint8Array>> = Object.freeze(
  Object.fromEntries(acceptedMimeTypes.map((type) => [type, sampleFor(type)])) as Record<SampleMimeType, Uint8Array>,
);

export interface TypedSample {
  mimeType: SampleMimeType;
  bytes: Uint8Array;
}

/**
 * A valid file of the family that is exactly one byte over `limitBytes` (by default the reference
 * server's limit; see sizeLimitReadings for the mebibyte reading). Within every other limit, so
 * the size is the only thing wrong with it: a PNG grown with a comment chunk, plain text, and a
 * one-second WAV grown with a JUNK chunk.
 */
export function oversizeSample(family: SampleFamily, limitBytes = sizeLimitReadings(family).reference): TypedSample {
  const totalBytes = limitBytes + 1;
  switch (family) {
    case 'image':
      return { mimeType: 'image/png', bytes: pngImage({ totalBytes }) };
    case 'document':
      return { mimeType: 'text/plain', bytes: plainTextOfSize(totalBytes) };
    case 'audio': {
      // RIFF chunks have even lengths; an odd total needs one more byte, so round up and say so.
      const even = totalBytes % 2 === 0 ? totalBytes : totalBytes + 1;
      return { mimeType: 'audio/wav', bytes: wavSeconds(1, { totalBytes: even }) };
    }
  }
}

export interface MismatchedSample {
  declaredMimeType: SampleMimeType;
  actualMimeType: SampleMimeType;
  bytes: Uint8Array;
}

/** PNG bytes to declare as audio/wav: the seed's own example of content not matching its type. */
export function mismatchedSample(): MismatchedSample {
  return { declaredMimeType: 'audio/wav', actualMimeType: 'image/png', bytes: pngImage() };
}

/**
 * Files declared as another member of their own family: a loosely comparing server (one that
 * checks only that an image is an image) would accept them; the seed requires the declared type
 * itself to match the content (4.5).
 */
export function sameFamilyMismatches(): MismatchedSample[] {
  const docx: SampleMimeType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  return [
    { declaredMimeType: 'image/webp', actualMimeType: 'image/png', bytes: pngImage() },
    { declaredMimeType: 'image/jpeg', actualMimeType: 'image/png', bytes: pngImage() },
    { declaredMimeType: 'image/png', actualMimeType: 'image/jpeg', bytes: jpegImage() },
    { declaredMimeType: 'image/png', actualMimeType: 'image/webp', bytes: webpImage() },
    { declaredMimeType: 'audio/mpeg', actualMimeType: 'audio/wav', bytes: wavSeconds(1) },
    { declaredMimeType: 'audio/ogg', actualMimeType: 'audio/flac', bytes: flacSeconds(1) },
    { declaredMimeType: 'audio/wav', actualMimeType: 'audio/mpeg', bytes: mp3Seconds(1) },
    { declaredMimeType: 'application/pdf', actualMimeType: docx, bytes: sampleFor(docx) },
    { declaredMimeType: docx, actualMimeType: 'application/pdf', bytes: pdfWithPages(1) },
  ];
}

/**
 * Two valid plain-text files of `totalBytes` bytes, identical in everything but their last
 * line: a server that hashes only a first part of each file gives both the same sha256.
 */
export function textTwinsDifferingAtTheEnd(totalBytes: number): [Uint8Array, Uint8Array] {
  const ending = (n: number) => textBytes(`Twin number ${n}.\n`);
  const body = plainTextOfSize(totalBytes - ending(1).length);
  const twin = (n: number) => {
    const out = new Uint8Array(totalBytes);
    out.set(body);
    out.set(ending(n), body.length);
    return out;
  };
  return [twin(1), twin(2)];
}

/**
 * The first half of a valid file: it still sniffs as its type but has lost its end. PDF and DOCX
 * readers need the end (cross-reference table, zip central directory); some other formats, WAV
 * for one, still yield a duration from their first half.
 */
export function truncatedSample(mimeType: SampleMimeType, options: SampleOptions = {}): Uint8Array {
  const whole = sampleFor(mimeType, options);
  return whole.slice(0, Math.floor(whole.length / 2));
}
