// Upload inspection: every accepted sample passes, and each rejection path answers the status and
// code the spec gives it (stated codes from the seed, name-only codes from name-only-statuses).
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  acceptedMimeTypes,
  acceptedSamples,
  docxWithPages,
  flacSeconds,
  jpegImage,
  mismatchedSample,
  mp3Seconds,
  oggOpusSeconds,
  oversizeSample,
  pdfWithPages,
  pngImage,
  sampleFor,
  truncatedSample,
  wavSeconds,
} from '../../harness/samples/media.ts';
import { errorCode, referenceChoice } from '../../spec/index.ts';
import { extractText, inspectUpload, type UploadVerdict } from '../assets/media.ts';

const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const text = (value: string): Uint8Array => new TextEncoder().encode(value);

function expectRejected(verdict: UploadVerdict, code: string): asserts verdict is Extract<UploadVerdict, { ok: false }> {
  expect(verdict).toMatchObject({ ok: false, code, status: errorCode(code).referenceStatus });
}

describe('pdf.js stays quiet', () => {
  afterEach(() => vi.restoreAllMocks());

  // First in the file, so pdf.js is loaded (and would warn about a missing canvas polyfill) under the spies.
  it('logs nothing while loading and reading valid, truncated and broken PDFs', async () => {
    const calls = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) => vi.spyOn(console, method).mockImplementation(() => undefined));
    await inspectUpload(pdfWithPages(2), 'application/pdf');
    await inspectUpload(truncatedSample('application/pdf', { pages: 4 }), 'application/pdf');
    const broken = new TextDecoder('latin1').decode(pdfWithPages(2)).replace(/stream\n/g, 'stream\n\u00ff\u00fe garbage ');
    await inspectUpload(
      Uint8Array.from(broken, (c) => c.charCodeAt(0)),
      'application/pdf',
    );
    for (const spy of calls) expect(spy).not.toHaveBeenCalled();
  });
});

describe('accepted uploads', () => {
  it.each(acceptedMimeTypes)('accepts the %s sample', async (type) => {
    const verdict = await inspectUpload(acceptedSamples[type], type);
    expect(verdict).toMatchObject({ ok: true, mimeType: type });
  });

  it('reports the family, page count and duration', async () => {
    expect(await inspectUpload(sampleFor('image/webp'), 'image/webp')).toEqual({ ok: true, mimeType: 'image/webp', family: 'image' });
    expect(await inspectUpload(pdfWithPages(3), 'application/pdf')).toEqual({ ok: true, mimeType: 'application/pdf', family: 'document', pages: 3 });
    expect(await inspectUpload(docxWithPages(4), docx)).toEqual({ ok: true, mimeType: docx, family: 'document', pages: 4 });
    expect(await inspectUpload(sampleFor('text/markdown'), 'text/markdown')).toEqual({ ok: true, mimeType: 'text/markdown', family: 'document' });
    const audio = await inspectUpload(flacSeconds(2.5), 'audio/flac');
    expect(audio).toMatchObject({ ok: true, family: 'audio' });
    expect(audio.ok && audio.durationSeconds).toBeCloseTo(2.5, 3);
  });

  it('ignores Content-Type parameters and letter case (open point upload-media-type-parameters)', async () => {
    expect(await inspectUpload(sampleFor('text/plain'), 'Text/Plain; charset=UTF-8')).toMatchObject({ ok: true, mimeType: 'text/plain' });
    expect(await inspectUpload(oggOpusSeconds(1), 'audio/ogg; codecs=opus')).toMatchObject({ ok: true, mimeType: 'audio/ogg' });
    expect(await inspectUpload(pngImage(), ' IMAGE/PNG ')).toMatchObject({ ok: true, mimeType: 'image/png' });
  });

  it('accepts UTF-8 text with a byte order mark and any UTF-8 text under any text type', async () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...text('Grüße, 東京')]);
    expect(await inspectUpload(withBom, 'text/plain')).toMatchObject({ ok: true });
    expect(await inspectUpload(text('<p>not really markdown</p>'), 'text/markdown')).toMatchObject({ ok: true });
    expect(await inspectUpload(text('<?xml version="1.0"?><note>xml is text</note>'), 'text/plain')).toMatchObject({ ok: true });
  });

  it('accepts a file of exactly the size limit and pages or seconds exactly at their limits', async () => {
    const imageLimit = referenceChoice<number>('size-units', 'image_max_bytes');
    expect(await inspectUpload(pngImage({ totalBytes: imageLimit }), 'image/png')).toMatchObject({ ok: true });
    expect(await inspectUpload(pdfWithPages(20), 'application/pdf')).toMatchObject({ ok: true, pages: 20 });
    expect(await inspectUpload(docxWithPages(20, { pageCountInProperties: false }), docx)).toMatchObject({ ok: true, pages: 20 });
    expect(await inspectUpload(wavSeconds(30), 'audio/wav')).toMatchObject({ ok: true, durationSeconds: 30 });
  });
});

describe('400 INVALID_REQUEST', () => {
  it('rejects an empty body, whatever the declared type', async () => {
    for (const declared of ['image/png', 'video/mp4', undefined]) {
      const verdict = await inspectUpload(new Uint8Array(0), declared);
      expectRejected(verdict, 'INVALID_REQUEST');
      expect(verdict.status).toBe(400);
    }
  });
});

describe('415 UNSUPPORTED_MIME_TYPE: type not accepted', () => {
  it('rejects a type outside the twelve', async () => {
    const verdict = await inspectUpload(pngImage(), 'video/mp4');
    expectRejected(verdict, 'UNSUPPORTED_MIME_TYPE');
    expect(verdict.status).toBe(415);
    expect(verdict.message).toBe('video/mp4 is not an accepted type.');
  });

  it('rejects aliases the spec does not list', async () => {
    expectRejected(await inspectUpload(wavSeconds(1), 'audio/x-wav'), 'UNSUPPORTED_MIME_TYPE');
    expectRejected(await inspectUpload(jpegImage(), 'image/jpg'), 'UNSUPPORTED_MIME_TYPE');
  });

  it('rejects a missing or blank Content-Type', async () => {
    expectRejected(await inspectUpload(pngImage(), undefined), 'UNSUPPORTED_MIME_TYPE');
    expectRejected(await inspectUpload(pngImage(), ' ; charset=utf-8'), 'UNSUPPORTED_MIME_TYPE');
  });

  it('does not echo a malformed Content-Type', async () => {
    const verdict = await inspectUpload(pngImage(), 'image/<script>alert(1)</script>');
    expectRejected(verdict, 'UNSUPPORTED_MIME_TYPE');
    expect(verdict.message).not.toContain('script');
  });
});

describe('415 UNSUPPORTED_MIME_TYPE: content does not match', () => {
  it('rejects PNG bytes declared as audio/wav (the seed example)', async () => {
    const sample = mismatchedSample();
    const verdict = await inspectUpload(sample.bytes, sample.declaredMimeType);
    expectRejected(verdict, 'UNSUPPORTED_MIME_TYPE');
    expect(verdict.message).toBe('Declared audio/wav, but the content is image/png.');
  });

  it('rejects audio declared as an image', async () => {
    const verdict = await inspectUpload(wavSeconds(1), 'image/png');
    expectRejected(verdict, 'UNSUPPORTED_MIME_TYPE');
    expect(verdict.message).toBe('Declared image/png, but the content is audio/wav.');
  });

  it.each([
    ['image/jpeg', 'image/png'],
    ['image/png', 'image/webp'],
    ['application/pdf', docx],
    [docx, 'application/pdf'],
    ['audio/mpeg', 'audio/flac'],
    ['audio/ogg', 'audio/wav'],
  ] as const)('rejects %s content declared as %s', async (actual, declared) => {
    const verdict = await inspectUpload(sampleFor(actual), declared);
    expectRejected(verdict, 'UNSUPPORTED_MIME_TYPE');
    expect(verdict.message).toBe(`Declared ${declared}, but the content is ${actual}.`);
  });

  it('rejects binary content declared as text', async () => {
    for (const declared of ['text/plain', 'text/markdown', 'text/html']) {
      const verdict = await inspectUpload(pngImage(), declared);
      expectRejected(verdict, 'UNSUPPORTED_MIME_TYPE');
      expect(verdict.message).toBe(`Declared ${declared}, but the content is image/png.`);
    }
    expectRejected(await inspectUpload(pdfWithPages(1), 'text/plain'), 'UNSUPPORTED_MIME_TYPE');
  });

  it('rejects text declared as a binary type', async () => {
    const verdict = await inspectUpload(text('just words'), 'image/png');
    expectRejected(verdict, 'UNSUPPORTED_MIME_TYPE');
    expect(verdict.message).toBe('Declared image/png, but the content is text.');
  });

  it('rejects invalid UTF-8, NUL bytes and UTF-16 as text', async () => {
    const invalid = [
      new Uint8Array([0x68, 0x69, 0xff, 0x21]), // a byte that never occurs in UTF-8
      new Uint8Array([0x63, 0x61, 0x66, 0xc3]), // a sequence cut short
      new Uint8Array([0xed, 0xa0, 0x80]), // an encoded surrogate
      text('a\u0000b'),
      new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]), // UTF-16LE with its byte order mark (file-type: "audio/mpeg")
      new Uint8Array([0xfe, 0xff, 0x00, 0x68, 0x00, 0x69]), // UTF-16BE
    ];
    for (const bytes of invalid) {
      const verdict = await inspectUpload(bytes, 'text/plain');
      expectRejected(verdict, 'UNSUPPORTED_MIME_TYPE');
      expect(verdict.message).toBe('Declared text/plain, but the content is not UTF-8 text.');
    }
  });

  it('never puts file content in the message', async () => {
    const marker = 'CONFIDENTIAL-7f3a';
    for (const declared of ['image/png', 'audio/wav', 'application/pdf']) {
      const verdict = await inspectUpload(text(`${marker} ${marker}`), declared);
      expect(verdict.ok).toBe(false);
      expect(JSON.stringify(verdict)).not.toContain(marker);
    }
  });
});

describe('413 ASSET_TOO_LARGE', () => {
  it.each(['image', 'document', 'audio'] as const)('rejects a %s one byte over its limit (open point size-units)', async (family) => {
    const limit = referenceChoice<number>('size-units', `${family}_max_bytes`);
    const sample = oversizeSample(family);
    expect(sample.bytes.length).toBeGreaterThan(limit);
    const verdict = await inspectUpload(sample.bytes, sample.mimeType);
    expectRejected(verdict, 'ASSET_TOO_LARGE');
    expect(verdict.status).toBe(413);
    expect(verdict.message).toBe(`${sample.mimeType} files are limited to ${limit} bytes; got ${sample.bytes.length}.`);
  });

  it('uses the limit of the declared family: 12 MB is too large for an image but not for a document', async () => {
    const twelveMegabytes = new Uint8Array(12_000_000).fill(0x61);
    expectRejected(await inspectUpload(twelveMegabytes, 'image/png'), 'ASSET_TOO_LARGE');
    expect(await inspectUpload(twelveMegabytes, 'text/plain')).toMatchObject({ ok: true });
  });
});

describe('DOCUMENT_TOO_MANY_PAGES (reference status)', () => {
  it('rejects a 21-page PDF', async () => {
    const verdict = await inspectUpload(pdfWithPages(21), 'application/pdf');
    expectRejected(verdict, 'DOCUMENT_TOO_MANY_PAGES');
    expect(verdict.message).toBe('Documents are limited to 20 pages; got 21.');
  });

  it('rejects a 21-page DOCX, whether app.xml states the pages or only page breaks show them', async () => {
    expectRejected(await inspectUpload(docxWithPages(21), docx), 'DOCUMENT_TOO_MANY_PAGES');
    expectRejected(await inspectUpload(docxWithPages(21, { pageCountInProperties: false }), docx), 'DOCUMENT_TOO_MANY_PAGES');
  });

  it('does not count pages of text files', async () => {
    const longText = text(Array.from({ length: 5000 }, (_, i) => `Line ${i}\f`).join('\n'));
    expect(await inspectUpload(longText, 'text/plain')).toEqual({ ok: true, mimeType: 'text/plain', family: 'document' });
  });
});

describe('AUDIO_TOO_LONG (reference status)', () => {
  it('rejects a 31-second WAV', async () => {
    const verdict = await inspectUpload(wavSeconds(31), 'audio/wav');
    expectRejected(verdict, 'AUDIO_TOO_LONG');
    expect(verdict.message).toBe('Audio is limited to 30 s; got 31 s.');
  });

  it.each([
    ['audio/mpeg', mp3Seconds],
    ['audio/flac', flacSeconds],
    ['audio/ogg', oggOpusSeconds],
  ] as const)('rejects 31 seconds of %s', async (type, make) => {
    expectRejected(await inspectUpload(make(31), type), 'AUDIO_TOO_LONG');
  });

  it('keeps a barely-too-long duration visibly over the limit in the message', async () => {
    const verdict = await inspectUpload(wavSeconds(30.01), 'audio/wav');
    expectRejected(verdict, 'AUDIO_TOO_LONG');
    expect(verdict.message).toBe('Audio is limited to 30 s; got 30.01 s.');
  });
});

describe('DECODE_FAILED (reference status)', () => {
  it('rejects a truncated PDF', async () => {
    const verdict = await inspectUpload(truncatedSample('application/pdf', { pages: 3 }), 'application/pdf');
    expectRejected(verdict, 'DECODE_FAILED');
    expect(verdict.message).toBe('The application/pdf file could not be decoded.');
  });

  it('rejects a PDF that only lost its end-of-file marker (pdf.js alone would read it)', async () => {
    const whole = pdfWithPages(2);
    expectRejected(await inspectUpload(whole.slice(0, whole.length - '%%EOF\n'.length), 'application/pdf'), 'DECODE_FAILED');
  });

  it('rejects a truncated DOCX (zip central directory lost)', async () => {
    const verdict = await inspectUpload(truncatedSample(docx, { pages: 3 }), docx);
    expectRejected(verdict, 'DECODE_FAILED');
  });

  it('rejects a DOCX archive without word/document.xml', async () => {
    const whole = docxWithPages(1);
    const { unzipSync } = await import('fflate');
    const parts = unzipSync(whole);
    delete parts['word/document.xml'];
    const verdict = await inspectUpload(zipSync(parts), docx);
    expectRejected(verdict, 'DECODE_FAILED');
  });

  it('rejects audio with no readable duration', async () => {
    // A WAV header and format chunk, but no data chunk.
    const wav = wavSeconds(1);
    const headerOnly = wav.slice(0, 36);
    new DataView(headerOnly.buffer).setUint32(4, headerOnly.length - 8, true);
    expectRejected(await inspectUpload(headerOnly, 'audio/wav'), 'DECODE_FAILED');
    // FLAC whose STREAMINFO is cut off.
    expectRejected(await inspectUpload(flacSeconds(1).slice(0, 20), 'audio/flac'), 'DECODE_FAILED');
  });

  it('rejects images whose container is broken', async () => {
    expectRejected(await inspectUpload(truncatedSample('image/png'), 'image/png'), 'DECODE_FAILED');
    const badCrc = pngImage();
    badCrc[30] = (badCrc[30] ?? 0) ^ 0xff; // inside IHDR's CRC
    expectRejected(await inspectUpload(badCrc, 'image/png'), 'DECODE_FAILED');
    expectRejected(await inspectUpload(jpegImage().slice(0, 100), 'image/jpeg'), 'DECODE_FAILED');
    expectRejected(await inspectUpload(truncatedSample('image/webp'), 'image/webp'), 'DECODE_FAILED');
  });

  it('rejects intact images with a zero dimension', async () => {
    expectRejected(await inspectUpload(pngImage({ width: 0 }), 'image/png'), 'DECODE_FAILED');
    const flat = jpegImage();
    const frame = flat.findIndex((byte, i) => byte === 0xff && flat[i + 1] === 0xc0);
    flat.set([0, 0], frame + 5); // the frame header's height
    expectRejected(await inspectUpload(flat, 'image/jpeg'), 'DECODE_FAILED');
    expect(await inspectUpload(jpegImage(), 'image/jpeg')).toMatchObject({ ok: true });
  });

  it('answers every name-only upload code with the status open point name-only-statuses gives it', async () => {
    const statuses = referenceChoice<Record<string, number>>('name-only-statuses', 'statuses');
    const cases: Array<[string, Uint8Array, string]> = [
      ['DECODE_FAILED', truncatedSample('application/pdf'), 'application/pdf'],
      ['DOCUMENT_TOO_MANY_PAGES', sampleFor('application/pdf', { pages: 21 }), 'application/pdf'],
      ['AUDIO_TOO_LONG', sampleFor('audio/wav', { seconds: 31 }), 'audio/wav'],
    ];
    for (const [code, bytes, type] of cases) {
      const verdict = await inspectUpload(bytes, type);
      expect(verdict.ok).toBe(false);
      if (!verdict.ok) expect([verdict.code, verdict.status]).toEqual([code, statuses[code]]);
    }
  });
});

describe('extractText', () => {
  it('returns plain text and Markdown as they are', () => {
    expect(extractText(text('Invoice 2031\nDue 14 March'), 'text/plain')).toBe('Invoice 2031\nDue 14 March');
    expect(extractText(text('# Title\n\n**bold** & <raw>'), 'text/markdown; charset=utf-8')).toBe('# Title\n\n**bold** & <raw>');
    expect(extractText(new Uint8Array([0xef, 0xbb, 0xbf, ...text('no BOM')]), 'text/plain')).toBe('no BOM');
  });

  it('strips tags, scripts, styles and comments from HTML and decodes character references', () => {
    const html =
      '<html><head><title>Ignored</title><style>body{color:red}</style></head><body>' +
      '<script type="text/javascript">var secret = "<p>no</p>";</script><!-- a comment -->' +
      '<h1>Caf&eacute; &amp; Co</h1><p>Price:&nbsp;5&euro; &lt;net&gt; &#8212; &#x263A; &quot;ok&quot; &unknown;</p>' +
      '<ul><li>one</li><li>two</li></ul><noscript>enable js</noscript></body></html>';
    expect(extractText(text(html), 'text/html')).toBe('Café & Co\nPrice: 5€ <net> — ☺ "ok" &unknown;\none\ntwo');
  });

  it('reads every HTML character reference as a browser does: named, legacy without a semicolon, decimal and hex', () => {
    const html =
      '<p>Caf&eacute; &Auml;pfel&nbsp;und Birnen&hellip;</p>' +
      '<p>&Eacute;t&eacute; &oslash; &aring; &frac12; &rarr; &NotEqualTilde; &fjlig;</p>' +
      // Legacy references HTML still reads without a semicolon, and one it does not (&hellip is not legacy).
      '<p>Fish &amp Chips &copy 2026 &hellip done</p>' +
      // Decimal and hex; HTML reads &#128; as the windows-1252 euro sign and &#0; as U+FFFD.
      '<p>&#233;&#x00C4; &#8364;&#128; &#x1F600; [&#0;]</p>';
    expect(extractText(text(html), 'text/html')).toBe(
      ['Café Äpfel und Birnen…', 'Été ø å ½ → ≂̸ fj', 'Fish & Chips © 2026 &hellip done', 'éÄ €€ 😀 [\uFFFD]'].join('\n'),
    );
  });

  it('keeps the text of the HTML sample', () => {
    expect(extractText(sampleFor('text/html'), 'text/html')).toBe('Invoice 2031\nSupplier: Café Nord & Sons\nDue on 14 March; amount 420 €.');
  });

  it('reads pathological HTML in linear time (stray "<" without ">", unclosed scripts and comments)', () => {
    const strays = '<a <script <!-- <p '.repeat(200_000); // 3.8 MB
    const started = performance.now();
    // The first unclosed comment hides the rest; the stray tags before it stay as text.
    expect(extractText(text(strays), 'text/html')).toBe('<a <script');
    expect(extractText(text(`ok${'<b'.repeat(1_000_000)}`), 'text/html')).toBe(`ok${'<b'.repeat(1_000_000)}`);
    // Quadratic matching would take hours here; linear takes well under a second.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('returns undefined for types whose reading comes later', () => {
    for (const type of ['application/pdf', docx, 'image/png', 'audio/wav'] as const) {
      expect(extractText(sampleFor(type), type)).toBeUndefined();
    }
  });
});
