// The generated samples are what they claim to be, judged by independent readers: file-type for
// the binary signatures, music-metadata for audio durations, pdf.js for PDF pages, fflate for
// DOCX parts. And they are deterministic, so a suite run is reproducible.
import { unzipSync } from 'fflate';
import { fileTypeFromBuffer } from 'file-type';
import { parseBuffer } from 'music-metadata';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../samples/checksums.ts';
import {
  acceptedMimeTypes,
  acceptedSamples,
  docxWithPages,
  familyOfType,
  jpegImage,
  flacSeconds,
  maxAudioSeconds,
  maxDocumentPages,
  mismatchedSample,
  mp3Seconds,
  oggOpusSeconds,
  oversizeSample,
  pdfWithPages,
  pngImage,
  sampleFor,
  sizeLimitReadings,
  truncatedSample,
  wavClip,
  wavSeconds,
  type SampleMimeType,
} from '../samples/media.ts';
import { scannedPdf } from '../samples/scanned-pdf.ts';
import { textPicture } from '../samples/text-picture.ts';

const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const textTypes = new Set<string>(['text/plain', 'text/markdown', 'text/html']);
const binaryTypes = acceptedMimeTypes.filter((type) => !textTypes.has(type));

/** file-type's answer without parameters: it calls Ogg Opus "audio/ogg; codecs=opus". */
async function sniffed(bytes: Uint8Array): Promise<string | undefined> {
  return (await fileTypeFromBuffer(bytes))?.mime.split(';', 1)[0];
}

async function pdfPages(bytes: Uint8Array): Promise<number> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: pdfjs.VerbosityLevel.ERRORS, isEvalSupported: false, stopAtErrors: true });
  try {
    const document = await task.promise;
    for (let page = 1; page <= document.numPages; page += 1) await document.getPage(page);
    return document.numPages;
  } finally {
    await task.destroy();
  }
}

async function durationOf(bytes: Uint8Array, mimeType: string): Promise<number | undefined> {
  return (await parseBuffer(bytes, { mimeType, size: bytes.length }, { duration: true })).format.duration;
}

describe('every accepted type has a sample', () => {
  it('covers exactly the twelve types of the spec', () => {
    expect(Object.keys(acceptedSamples).sort()).toEqual([...acceptedMimeTypes].sort());
    expect(acceptedMimeTypes).toHaveLength(12);
  });

  it.each(binaryTypes)('%s is recognised as its type by file-type', async (type) => {
    expect(await sniffed(acceptedSamples[type])).toBe(type);
  });

  it.each([...textTypes])('%s is UTF-8 text with no binary signature', async (type) => {
    const bytes = acceptedSamples[type as SampleMimeType];
    expect(await fileTypeFromBuffer(bytes)).toBeUndefined();
    expect(bytes.includes(0)).toBe(false);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).not.toThrow();
    expect(new TextDecoder().decode(bytes)).toMatch(/[^\x00-\x7f]/); // exercises multi-byte UTF-8
  });
});

describe('determinism', () => {
  it.each(acceptedMimeTypes)('%s is byte-identical on every call', (type) => {
    expect(sampleFor(type)).toEqual(sampleFor(type));
    expect(sampleFor(type)).toEqual(acceptedSamples[type]);
  });

  it('builds parameterised samples identically', () => {
    expect(pdfWithPages(7)).toEqual(pdfWithPages(7));
    expect(docxWithPages(7)).toEqual(docxWithPages(7));
    expect(wavSeconds(2.5)).toEqual(wavSeconds(2.5));
    expect(oggOpusSeconds(2.5)).toEqual(oggOpusSeconds(2.5));
  });

  it('builds the same DOCX in every time zone (zip timestamps are local time)', () => {
    const original = process.env.TZ;
    try {
      process.env.TZ = 'Pacific/Kiritimati';
      const east = docxWithPages(2);
      process.env.TZ = 'America/Los_Angeles';
      const west = docxWithPages(2);
      expect(west).toEqual(east);
    } finally {
      if (original === undefined) delete process.env.TZ;
      else process.env.TZ = original;
    }
  });
});

describe('images', () => {
  it('PNG chunks carry correct CRCs and the pixels inflate to width x height rows', () => {
    const png = pngImage({ width: 5, height: 3 });
    const view = new DataView(png.buffer);
    let at = 8;
    let idat = new Uint8Array(0);
    const types: string[] = [];
    while (at < png.length) {
      const length = view.getUint32(at);
      const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
      types.push(type);
      expect(view.getUint32(at + 8 + length)).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
      if (type === 'IDAT') idat = png.slice(at + 8, at + 8 + length);
      at += 12 + length;
    }
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(inflateSync(idat).length).toBe(3 * (1 + 5 * 3));
  });

  it('grows a PNG to an exact size with a comment chunk, still a PNG', async () => {
    const png = pngImage({ totalBytes: 5000 });
    expect(png.length).toBe(5000);
    expect(await sniffed(png)).toBe('image/png');
  });
});

describe('documents', () => {
  it.each([1, 3, 20, 21])('the PDF with %i pages has that many pages for pdf.js', async (pages) => {
    expect(await pdfPages(pdfWithPages(pages))).toBe(pages);
  });

  it('PDF cross-reference offsets point at their objects', () => {
    const pdf = new TextDecoder('latin1').decode(pdfWithPages(3));
    const xrefAt = Number(/startxref\n(\d+)/.exec(pdf)?.[1]);
    expect(pdf.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const entries = [...pdf.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    expect(entries).toHaveLength(1 + 2 + 3 * 2);
    entries.forEach((offset, i) => expect(pdf.slice(offset)).toMatch(new RegExp(`^${i + 1} 0 obj\\n`)));
  });

  it.each([1, 3, 21])('the DOCX with %i pages states them in app.xml and separates them with page breaks', async (pages) => {
    const bytes = docxWithPages(pages);
    expect(await sniffed(bytes)).toBe(docx);
    const parts = unzipSync(bytes);
    expect(Object.keys(parts).sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'docProps/app.xml', 'word/document.xml']);
    const documentXml = new TextDecoder().decode(parts['word/document.xml']);
    expect(documentXml.match(/<w:br w:type="page"\/>/g)?.length ?? 0).toBe(pages - 1);
    expect(new TextDecoder().decode(parts['docProps/app.xml'])).toContain(`<Pages>${pages}</Pages>`);
  });

  it('can leave out app.xml, so only the page breaks tell the page count', async () => {
    const bytes = docxWithPages(4, { pageCountInProperties: false });
    expect(await sniffed(bytes)).toBe(docx);
    expect(Object.keys(unzipSync(bytes))).not.toContain('docProps/app.xml');
  });

  it('states the spec page limit', () => {
    expect(maxDocumentPages).toBe(20);
  });
});

describe('audio', () => {
  const makers = [
    ['audio/wav', wavSeconds, 0],
    ['audio/mpeg', mp3Seconds, 0.012], // whole 24 ms frames
    ['audio/flac', flacSeconds, 0],
    ['audio/ogg', oggOpusSeconds, 0],
  ] as const;

  for (const [type, make, tolerance] of makers) {
    it.each([1, 2.5, 30, 31])(`${type} of %s s lasts that long for music-metadata`, async (seconds) => {
      const bytes = make(seconds);
      expect(await sniffed(bytes)).toBe(type);
      const duration = await durationOf(bytes, type);
      expect(Math.abs((duration ?? Number.NaN) - seconds)).toBeLessThanOrEqual(tolerance + 1e-9);
    });
  }

  it('MPEG frames decode as 48 kHz mono Layer III', async () => {
    const metadata = await parseBuffer(mp3Seconds(1), { mimeType: 'audio/mpeg' }, { duration: true });
    expect(metadata.format).toMatchObject({ codec: 'MPEG 1 Layer 3', sampleRate: 48000, numberOfChannels: 1 });
  });

  it('the Ogg stream is Opus', async () => {
    const metadata = await parseBuffer(oggOpusSeconds(1), { mimeType: 'audio/ogg' }, { duration: true });
    expect(metadata.format).toMatchObject({ container: 'Ogg', codec: 'Opus', sampleRate: 48000, numberOfChannels: 1 });
  });

  it('a clip of tones and silences is a WAV of its segments, rate and channels, with its comment as metadata', async () => {
    const bytes = wavClip(
      [
        { seconds: 1.5, amplitude: 0.5 },
        { seconds: 0.5, amplitude: 0 },
      ],
      { sampleRate: 22050, channels: 2, comment: 'note 42' },
    );
    expect(await sniffed(bytes)).toBe('audio/wav');
    const metadata = await parseBuffer(bytes, { mimeType: 'audio/wav' }, { duration: true });
    expect(metadata.format).toMatchObject({ sampleRate: 22050, numberOfChannels: 2, bitsPerSample: 16, duration: 2 });
    expect(metadata.common.comment?.map((comment) => (typeof comment === 'string' ? comment : comment.text))).toEqual(['note 42']);
    // The tone's first peak: a quarter period of 440 Hz in, at half of full scale.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const dataStart = bytes.length - 2 * 2 * 22050 * 2;
    const peakFrame = Math.round(22050 / 440 / 4);
    expect(Math.abs(view.getInt16(dataStart + peakFrame * 4, true) - 16384)).toBeLessThan(200);
  });

  it('states the spec duration limit', () => {
    expect(maxAudioSeconds).toBe(30);
  });
});

describe('failure cases', () => {
  it.each(['image', 'document', 'audio'] as const)('the oversize %s is a valid file of its family just over the limit', async (family) => {
    const { reference } = sizeLimitReadings(family);
    const sample = oversizeSample(family);
    expect(familyOfType(sample.mimeType)).toBe(family);
    // One byte over; RIFF chunks have even lengths, so the WAV may need a second byte.
    expect(sample.bytes.length - reference).toBeGreaterThanOrEqual(1);
    expect(sample.bytes.length - reference).toBeLessThanOrEqual(2);
    if (!textTypes.has(sample.mimeType)) expect(await sniffed(sample.bytes)).toBe(sample.mimeType);
    if (family === 'audio') expect(await durationOf(sample.bytes, sample.mimeType)).toBe(1);
  });

  it('offers both readings of "MB" and can exceed the larger one', () => {
    expect(sizeLimitReadings('image')).toEqual({ reference: 10_000_000, decimal: 10_000_000, binary: 10_485_760 });
    expect(sizeLimitReadings('document')).toMatchObject({ decimal: 25_000_000, binary: 26_214_400 });
    expect(oversizeSample('document', sizeLimitReadings('document').binary).bytes.length).toBe(26_214_401);
  });

  it('the mismatched sample is PNG bytes declared as audio/wav', async () => {
    const sample = mismatchedSample();
    expect(sample).toMatchObject({ declaredMimeType: 'audio/wav', actualMimeType: 'image/png' });
    expect(await sniffed(sample.bytes)).toBe('image/png');
  });

  it('a truncated PDF or DOCX still sniffs as its type but no longer reads', async () => {
    const pdf = truncatedSample('application/pdf', { pages: 3 });
    expect(await sniffed(pdf)).toBe('application/pdf');
    await expect(pdfPages(pdf)).rejects.toThrow();
    const truncatedDocx = truncatedSample(docx, { pages: 3 });
    expect(await sniffed(truncatedDocx)).toBe(docx);
    expect(() => unzipSync(truncatedDocx)).toThrow();
  });
});

describe('pictures of text', () => {
  it('textPicture gives a PNG, JPEG or WebP of the declared type, the same bytes every time', async () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp'] as const) {
      expect(await sniffed(textPicture(['Refund please'], type))).toBe(type);
    }
    expect(textPicture(['Refund please'])).toEqual(textPicture(['Refund please']));
  });

  it('scannedPdf has one page per entry and no text layer: the words are only in the pictures', async () => {
    const bytes = scannedPdf([['first page'], ['second page']]);
    expect(await sniffed(bytes)).toBe('application/pdf');
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const document = await pdfjs.getDocument({ data: bytes, verbosity: 0 }).promise;
    expect(document.numPages).toBe(2);
    for (const number of [1, 2]) {
      const page = await document.getPage(number);
      expect((await page.getTextContent()).items).toEqual([]);
      const operators = await page.getOperatorList();
      expect(operators.fnArray).toContain(pdfjs.OPS.paintImageXObject);
    }
    await document.destroy();
  });
});

describe('grown to an exact size with what readers skip', () => {
  it('a JPEG grown by comment segments is still a JPEG, to the byte', async () => {
    for (const size of [2000, 65_600, 70_000, 200_003]) {
      const jpeg = jpegImage({ totalBytes: size });
      expect(jpeg.length).toBe(size);
      expect(await sniffed(jpeg)).toBe('image/jpeg');
    }
  });

  it('a PDF grown by an unreferenced stream keeps its one page for pdf.js, to the byte', async () => {
    for (const size of [5_000, 99_999, 100_000, 1_000_003]) {
      const pdf = pdfWithPages(1, { totalBytes: size });
      expect(pdf.length).toBe(size);
      expect(await pdfPages(pdf)).toBe(1);
    }
  });

  it('an MP3 grown by an ID3 tag and a FLAC grown by a PADDING block still last one second, to the byte', async () => {
    const mp3 = mp3Seconds(1, { totalBytes: 300_000 });
    const flac = flacSeconds(1, { totalBytes: 300_001 });
    expect([mp3.length, flac.length]).toEqual([300_000, 300_001]);
    expect(await durationOf(mp3, 'audio/mpeg')).toBeCloseTo(1, 1);
    expect(await durationOf(flac, 'audio/flac')).toBeCloseTo(1, 1);
    expect(await sniffed(flac)).toBe('audio/flac');
  });
});
