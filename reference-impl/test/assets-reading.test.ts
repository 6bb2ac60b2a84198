// The asset reader on its own (assets/reading/): what each reader gives, the failures it reports,
// and that a file is read once.
import { createHash } from 'node:crypto';
import { afterAll, expect, test } from 'vitest';
import { docxWithPages, pdfWithPages, sampleFor } from '../../harness/samples/media.ts';
import { withPngComment } from '../../harness/samples/png.ts';
import { textPicture } from '../../harness/samples/text-picture.ts';
import { createAssetReader } from '../assets/reading/asset-reader.ts';
import { documentXmlText } from '../assets/reading/docx-text.ts';
import { withoutPngMetadata } from '../assets/reading/png-metadata.ts';

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const reader = createAssetReader({ ocrWorkers: 1 });
afterAll(() => reader.close());

const assetOf = (mimeType: string, bytes: Uint8Array) => ({ mime_type: mimeType as 'image/png', sha256: createHash('sha256').update(bytes).digest('hex') });
const read = (mimeType: string, bytes: Uint8Array) => reader.read(assetOf(mimeType, bytes), bytes);

test('DOCX: paragraphs on their own lines, tabs and breaks kept, entities decoded, deleted text left out', () => {
  const xml =
    '<w:document><w:body><w:p><w:r><w:t xml:space="preserve">Refund </w:t></w:r><w:r><w:t>&amp; credit</w:t><w:tab/><w:t>&#x20AC;5</w:t></w:r></w:p>' +
    '<w:p><w:r><w:delText>withdrawn</w:delText><w:t>line</w:t><w:br/><w:t>two &lt;ok&gt;</w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:body></w:document>';
  expect(documentXmlText(xml)).toBe('Refund & credit\t€5\nline\ntwo <ok>\ncell');
});

test('each reader gives the text of its kind of file', async () => {
  expect(await read(docxType, docxWithPages(2, { pageText: (page) => `Invoice part ${page}` }))).toEqual({ text: 'Invoice part 1\n\nInvoice part 2' });
  expect(await read('application/pdf', pdfWithPages(2, { pageText: (page) => `Statement page ${page}` }))).toEqual({
    text: 'Statement page 1\nStatement page 2',
  });
  expect(await read('text/html', sampleFor('text/html'))).toEqual({ text: 'Invoice 2031\nSupplier: Café Nord & Sons\nDue on 14 March; amount 420 €.' });
  expect(await read('image/jpeg', textPicture(['Parcel never arrived'], 'image/jpeg'))).toEqual({ text: 'Parcel never arrived' });
  // Audio has no reader yet: it adds no text.
  expect(await read('audio/wav', sampleFor('audio/wav'))).toEqual({ text: '' });
});

test('files a reader cannot parse are undecodable; pictures OCR cannot read are unread', async () => {
  const broken = new TextEncoder().encode('%PDF-1.4\nnot a pdf at all\n%%EOF\n');
  expect(await read('application/pdf', broken)).toEqual({ failure: 'undecodable' });
  expect(await read(docxType, new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]))).toEqual({ failure: 'undecodable' });
  expect(await read('image/png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]))).toEqual({ failure: 'picture-unread' });
});

test('a file is read once and then served from the cache; a failed read is tried again', async () => {
  const picture = textPicture(['Read me once']);
  const first = read('image/png', picture);
  expect(reader.isRead(assetOf('image/png', picture))).toBe(false);
  expect(read('image/png', picture)).toBe(first); // the read in progress is shared
  expect(await first).toEqual({ text: 'Read me once' });
  expect(reader.isRead(assetOf('image/png', picture))).toBe(true);

  const hurried = createAssetReader({ timeLimitMs: 0 });
  try {
    expect(await hurried.read(assetOf('image/png', picture), picture)).toEqual({ failure: 'picture-unread' });
    expect(hurried.isRead(assetOf('image/png', picture))).toBe(false);
  } finally {
    await hurried.close();
  }
});

test('OCR gets a PNG without its metadata chunks, every other chunk byte for byte; anything else as it is', () => {
  const picture = textPicture(['Parcel never arrived']);
  const commented = withPngComment(picture, picture.length + 5_000);
  expect(withoutPngMetadata(commented)?.equals(Buffer.from(picture))).toBe(true);
  expect(withoutPngMetadata(picture)).toBeUndefined();
  expect(withoutPngMetadata(commented.subarray(0, picture.length + 100))).toBeUndefined();
  expect(withoutPngMetadata(textPicture(['Parcel never arrived'], 'image/jpeg'))).toBeUndefined();
});
