// A WordprocessingML document zipped with fflate: [Content_Types].xml, _rels/.rels,
// word/document.xml and docProps/app.xml. Pages are separated by explicit page breaks, and
// app.xml states the page count the way word processors record it.
import { zipSync } from 'fflate';
import { utf8 } from './bytes.ts';

export interface DocxOptions {
  /** Write docProps/app.xml with <Pages>; without it a reader has to count the page breaks. */
  pageCountInProperties?: boolean;
  pageText?: (page: number, pageCount: number) => string;
}

// fflate writes DOS timestamps from a Date's local-time fields. A Date built from local fields at
// the time of the call reads back the same fields in whatever time zone is current, so the archive
// is byte-identical everywhere (a Date made once would shift if the zone changed).
function fixedModificationTime(): Date {
  return new Date(2020, 0, 1, 12, 0, 0);
}

const wordprocessingMain = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function contentTypes(withProperties: boolean): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    `<Override PartName="/word/document.xml" ContentType="${wordprocessingMain}"/>` +
    (withProperties ? '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' : '') +
    '</Types>'
  );
}

function packageRelationships(withProperties: boolean): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
    (withProperties
      ? '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>'
      : '') +
    '</Relationships>'
  );
}

function documentXml(pageCount: number, pageText: (page: number, pageCount: number) => string): string {
  const paragraphs: string[] = [];
  for (let page = 1; page <= pageCount; page += 1) {
    const pageBreak = page < pageCount ? '<w:r><w:br w:type="page"/></w:r>' : '';
    paragraphs.push(`<w:p><w:r><w:t>${escapeXml(pageText(page, pageCount))}</w:t></w:r>${pageBreak}</w:p>`);
  }
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
    `<w:body>${paragraphs.join('')}<w:sectPr/></w:body></w:document>`
  );
}

function appProperties(pageCount: number): string {
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">' +
    `<Application>Decision Service conformance samples</Application><Pages>${pageCount}</Pages></Properties>`
  );
}

export function docxWithPages(pageCount: number, options: DocxOptions = {}): Uint8Array {
  if (!Number.isInteger(pageCount) || pageCount < 1) throw new RangeError('A document needs at least one page');
  const withProperties = options.pageCountInProperties ?? true;
  const pageText = options.pageText ?? ((page, count) => `Page ${page} of ${count}`);
  const entries: Record<string, Uint8Array> = {
    '[Content_Types].xml': utf8(contentTypes(withProperties)),
    '_rels/.rels': utf8(packageRelationships(withProperties)),
    'word/document.xml': utf8(documentXml(pageCount, pageText)),
  };
  if (withProperties) entries['docProps/app.xml'] = utf8(appProperties(pageCount));
  return zipSync(entries, { level: 6, mtime: fixedModificationTime() });
}
