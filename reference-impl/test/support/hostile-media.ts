// Decompression bombs: small, valid files that declare far more pixels, pages, bytes or samples
// than their size suggests, for the reference server's memory limits (reference-impl/README.md,
// "Memory ceiling") and the benchmark load/bench/hostile-media-memory.ts. Every one is written by
// hand, in a few milliseconds whatever it declares:
//
// - PNG: 8-bit grey of one colour; its zlib stream of zeros is one deflate segment of 1 MiB of
//   zeros ended by a full flush (which makes it independent of what came before) repeated as
//   often as needed, then a final segment: 20,000² pixels in 389 kB, as the issue measured.
// - JPEG: baseline grey whose Huffman tables hold one symbol each (a 1-bit code): every 8×8 block
//   is 2 bits (DC difference 0, end of block), so 40,000² pixels take 6.25 MB.
// - WebP: lossless (VP8L) whose five prefix codes each hold one symbol: a pixel takes no bits at
//   all, so 16,384² pixels (the format's largest) take 30 bytes.
// - PDF: pages showing a grey image XObject of one colour (Flate, as the PNG), or a JPEG whose
//   dictionary understates its size, or a height given by reference; or one inline image inside
//   the content stream, which no image dictionary shows.
// - DOCX: word/document.xml as one paragraph of N letters (after empty runs, if asked), deflated
//   as the PNG's zeros; its sizes in the archive can understate what it inflates to.
// - PNG noise: 1-bit random pixels, within every limit but costly for OCR (the other way to be
//   hostile: valid size, valid dimensions).
// - FLAC: 8-bit audio of up to 8 channels at up to 655,350 Hz, every subframe CONSTANT (a byte
//   per channel and frame of 65,535 samples); STREAMINFO can understate the samples.
import { createHash, randomBytes } from 'node:crypto';
import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';

const concat = (parts: readonly Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));
const latin1 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));
const u16be = (value: number) => new Uint8Array([(value >>> 8) & 0xff, value & 0xff]);
const u32be = (value: number) => new Uint8Array([(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
const u16le = (value: number) => new Uint8Array([value & 0xff, (value >>> 8) & 0xff]);
const u32le = (value: number) => new Uint8Array([value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff]);

const SEGMENT = 1 << 20;

/** A raw deflate stream of `count` bytes of `fill` repeated: one full-flushed segment repeated, then a final one. */
function deflatedRun(count: number, fill: number | string, final = true): Uint8Array[] {
  const parts: Uint8Array[] = [];
  const whole = Math.floor(count / SEGMENT);
  if (whole > 0) {
    const segment = deflateRawSync(Buffer.alloc(SEGMENT, fill), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
    for (let i = 0; i < whole; i += 1) parts.push(segment);
  }
  const rest = Buffer.alloc(count - whole * SEGMENT, fill);
  parts.push(deflateRawSync(rest, { level: 9, finishFlush: final ? constants.Z_FINISH : constants.Z_FULL_FLUSH }));
  return parts;
}

/** Adler-32 of `count` zero bytes: a stays 1, b adds 1 per byte. */
const adler32OfZeros = (count: number): number => (((count % 65521) << 16) | 1) >>> 0;

/** A zlib stream (RFC 1950) of `count` zero bytes. */
export function zlibZeros(count: number): Uint8Array {
  return concat([new Uint8Array([0x78, 0xda]), ...deflatedRun(count, 0), u32be(adler32OfZeros(count))]);
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typeAndData = concat([latin1(type), data]);
  return concat([u32be(data.length), typeAndData, u32be(crc32(typeAndData))]);
}

/** An 8-bit grey PNG, black all over, of `width` × `height` pixels. */
export function pngBomb(width: number, height: number): Uint8Array {
  const header = concat([u32be(width), u32be(height), new Uint8Array([8, 0, 0, 0, 0])]);
  // Each row: filter byte 0, then `width` zero pixels.
  const data = zlibZeros(height * (width + 1));
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', data),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/**
 * A 1-bit grey PNG of random pixels: valid-size and hostile the other way, as OCR finds a blob in
 * every speck (20,000,000 pixels in 2.5 MB).
 */
export function pngNoise(width: number, height: number): Uint8Array {
  const header = concat([u32be(width), u32be(height), new Uint8Array([1, 0, 0, 0, 0])]);
  const rowBytes = Math.ceil(width / 8);
  const rows = randomBytes((rowBytes + 1) * height);
  for (let y = 0; y < height; y += 1) rows[y * (rowBytes + 1)] = 0; // filter: none
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 1 })),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

function jpegSegment(marker: number, data: Uint8Array): Uint8Array {
  return concat([new Uint8Array([0xff, marker]), u16be(data.length + 2), data]);
}

/** A baseline grey JPEG of one mid-grey colour, `width` × `height` pixels (each at most 65,535). */
export function jpegBomb(width: number, height: number): Uint8Array {
  const quantisation = concat([new Uint8Array([0x00]), new Uint8Array(64).fill(1)]);
  const frame = concat([new Uint8Array([8]), u16be(height), u16be(width), new Uint8Array([1, 1, 0x11, 0])]);
  // One code of length 1 per table: DC category 0 (difference 0), AC symbol 0x00 (end of block).
  const oneSymbolTable = (tableClass: number) =>
    concat([new Uint8Array([tableClass << 4]), new Uint8Array([1, ...new Array(15).fill(0)]), new Uint8Array([0])]);
  const scanHeader = new Uint8Array([1, 1, 0x00, 0, 63, 0]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = blocks * 2;
  const scan = new Uint8Array(Math.ceil(bits / 8));
  // Padding bits of the last byte are ones.
  if (bits % 8 !== 0) scan[scan.length - 1] = 0xff >> (bits % 8);
  return concat([
    new Uint8Array([0xff, 0xd8]),
    jpegSegment(0xdb, quantisation),
    jpegSegment(0xc0, frame),
    jpegSegment(0xc4, concat([oneSymbolTable(0), oneSymbolTable(1)])),
    jpegSegment(0xda, scanHeader),
    scan,
    new Uint8Array([0xff, 0xd9]),
  ]);
}

class LsbBits {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;
  write(value: number, count: number): void {
    for (let bit = 0; bit < count; bit += 1) {
      this.current |= ((value >>> bit) & 1) << this.used;
      this.used += 1;
      if (this.used === 8) {
        this.bytes.push(this.current);
        this.current = 0;
        this.used = 0;
      }
    }
  }
  finish(): number[] {
    if (this.used > 0) this.bytes.push(this.current);
    return this.bytes;
  }
}

/** A lossless WebP (VP8L) of one opaque black colour, `width` × `height` pixels (each at most 16,384). */
export function webpBomb(width: number, height: number): Uint8Array {
  const bits = new LsbBits();
  bits.write(0x2f, 8); // signature
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(0, 1); // alpha unused
  bits.write(0, 3); // version
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  // Green, red, blue, alpha, distance: each a simple code of one symbol.
  for (const symbol of [0, 0, 0, 255, 0]) {
    bits.write(1, 1); // simple code
    bits.write(0, 1); // one symbol
    if (symbol < 2) {
      bits.write(0, 1);
      bits.write(symbol, 1);
    } else {
      bits.write(1, 1);
      bits.write(symbol, 8);
    }
  }
  const data = new Uint8Array(16);
  data.set(bits.finish());
  return concat([latin1('RIFF'), u32le(4 + 8 + data.length), latin1('WEBP'), latin1('VP8L'), u32le(data.length), data]);
}

export interface PdfBombOptions {
  pages: number;
  /** Each page's image, in pixels. */
  width: number;
  height: number;
  /** One image object shown on every page (the file stays small), or one per page. */
  sharedImage?: boolean;
  /** The page size in points (default US Letter). */
  mediaBox?: readonly [number, number];
  /** The image is this JPEG (DCTDecode), whatever size its dictionary states. */
  jpeg?: Uint8Array;
  /** The dictionary's /Height is a reference to an object holding the number. */
  heightByReference?: boolean;
}

/**
 * A PDF written object by object: `push(number, ...bytes)` appends object `number` and notes its
 * offset, `finish(count)` appends the cross-reference table of objects 1..count, the trailer
 * (catalog 1) and the end, and returns the file.
 */
function pdfWriter() {
  const parts: Uint8Array[] = [latin1('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  return {
    push(number: number, ...bytes: Uint8Array[]): void {
      offsets[number] = length;
      for (const part of bytes) {
        parts.push(part);
        length += part.length;
      }
    },
    finish(count: number): Uint8Array {
      const size = count + 1;
      const entries = Array.from({ length: count }, (_, i) => `${String(offsets[i + 1]).padStart(10, '0')} 00000 n \n`).join('');
      parts.push(latin1(`xref\n0 ${size}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
      return concat(parts);
    },
  };
}

/** A PDF whose pages each show a grey image of `width` × `height` pixels and carry no text layer. */
export function pdfBomb(options: PdfBombOptions): Uint8Array {
  const [pageWidth, pageHeight] = options.mediaBox ?? [612, 792];
  const image = options.jpeg ?? zlibZeros(options.width * options.height);
  const filter = options.jpeg ? '/DCTDecode' : '/FlateDecode';
  const imageObject = (number: number) =>
    latin1(
      `${number} 0 obj\n<< /Type /XObject /Subtype /Image /Width ${options.width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter ${filter} /Length ${image.length} >>\nstream\n`,
    );
  const content = `q ${pageWidth} 0 0 ${pageHeight} 0 0 cm /Scan Do Q`;
  // Objects: 1 catalog, 2 page tree, then per page: page, contents (and image unless shared); a shared image last.
  const perPage = options.sharedImage ? 2 : 3;
  const pageNumber = (index: number) => 3 + index * perPage;
  const sharedNumber = 3 + options.pages * perPage;
  const imagesEnd = options.sharedImage ? sharedNumber : 3 + options.pages * perPage - 1;
  const objectCount = options.heightByReference ? imagesEnd + 1 : imagesEnd;
  const height = options.heightByReference ? `${objectCount} 0 R` : String(options.height);
  const { push, finish } = pdfWriter();
  const text = (number: number, body: string) => push(number, latin1(`${number} 0 obj\n${body}\nendobj\n`));
  text(1, '<< /Type /Catalog /Pages 2 0 R >>');
  text(2, `<< /Type /Pages /Kids [${Array.from({ length: options.pages }, (_, i) => `${pageNumber(i)} 0 R`).join(' ')}] /Count ${options.pages} >>`);
  for (let index = 0; index < options.pages; index += 1) {
    const page = pageNumber(index);
    const imageNumber = options.sharedImage ? sharedNumber : page + 2;
    text(
      page,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pageWidth} ${pageHeight}] /Resources << /XObject << /Scan ${imageNumber} 0 R >> >> /Contents ${page + 1} 0 R >>`,
    );
    text(page + 1, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    if (!options.sharedImage) push(page + 2, imageObject(page + 2), image, latin1('\nendstream\nendobj\n'));
  }
  if (options.sharedImage) push(sharedNumber, imageObject(sharedNumber), image, latin1('\nendstream\nendobj\n'));
  if (options.heightByReference) text(objectCount, String(options.height));
  return finish(objectCount);
}

interface ZipEntry {
  name: string;
  /** Raw deflate data, or the stored bytes. */
  data: Uint8Array;
  method: 0 | 8;
  crc: number;
  size: number;
  /** The uncompressed size written in the headers (default: the true one). */
  statedSize?: number;
}

/** A zip archive of the given entries (no data descriptors, no zip64). */
function zipArchive(entries: readonly ZipEntry[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = latin1(entry.name);
    const stated = entry.statedSize ?? entry.size;
    const common = concat([
      u16le(20),
      u16le(0),
      u16le(entry.method),
      u16le(0),
      u16le(0x21),
      u32le(entry.crc),
      u32le(entry.data.length),
      u32le(stated),
      u16le(name.length),
      u16le(0),
    ]);
    const local = concat([u32le(0x04034b50), common, name, entry.data]);
    centrals.push(concat([u32le(0x02014b50), u16le(20), common, u16le(0), u16le(0), u16le(0), u32le(0), u32le(offset), name]));
    locals.push(local);
    offset += local.length;
  }
  const directory = concat(centrals);
  const end = concat([u32le(0x06054b50), u16le(0), u16le(0), u16le(entries.length), u16le(entries.length), u32le(directory.length), u32le(offset), u16le(0)]);
  return concat([...locals, directory, end]);
}

const stored = (name: string, text: string): ZipEntry => {
  const data = latin1(text);
  return { name, data, method: 0, crc: crc32(data), size: data.length };
};

export interface DocxBombOptions {
  /** Letters in the document's one paragraph. */
  letters: number;
  /** Bytes of empty runs (`<w:r/>`, which add no text) before the paragraph: a large document.xml of little text. */
  fillerBytes?: number;
  /** The uncompressed size of word/document.xml written in the archive, if not the true one. */
  statedSize?: number;
}

/** A DOCX whose word/document.xml is one paragraph of `letters` letters "a". */
export function docxBomb(options: DocxBombOptions): Uint8Array {
  const head =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p>';
  const runOpen = '<w:r><w:t>';
  const tail = '</w:t></w:r></w:p><w:sectPr/></w:body></w:document>';
  const filler = Math.floor((options.fillerBytes ?? 0) / 8) * 8;
  const data = concat([
    deflateRawSync(Buffer.from(head), { finishFlush: constants.Z_FULL_FLUSH }),
    ...deflatedRun(filler, '<w:r/>  ', false),
    deflateRawSync(Buffer.from(runOpen), { finishFlush: constants.Z_FULL_FLUSH }),
    ...deflatedRun(options.letters, 0x61, false),
    deflateRawSync(Buffer.from(tail)),
  ]);
  let crc = crc32(head);
  const fillerSegment = Buffer.alloc(SEGMENT, '<w:r/>  ');
  for (let i = 0; i < Math.floor(filler / SEGMENT); i += 1) crc = crc32(fillerSegment, crc);
  crc = crc32(Buffer.alloc(filler % SEGMENT, '<w:r/>  '), crc);
  crc = crc32(runOpen, crc);
  const segment = Buffer.alloc(SEGMENT, 0x61);
  const whole = Math.floor(options.letters / SEGMENT);
  for (let i = 0; i < whole; i += 1) crc = crc32(segment, crc);
  crc = crc32(Buffer.alloc(options.letters - whole * SEGMENT, 0x61), crc);
  crc = crc32(tail, crc);
  const size = head.length + filler + runOpen.length + options.letters + tail.length;
  const document: ZipEntry = {
    name: 'word/document.xml',
    data,
    method: 8,
    crc,
    size,
    ...(options.statedSize !== undefined ? { statedSize: options.statedSize } : {}),
  };
  return zipArchive([
    stored(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    stored(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    document,
  ]);
}

// FLAC's CRC-8 (polynomial 0x07) over a frame header and CRC-16 (polynomial 0x8005) over a frame.
function crc8(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** FLAC's UTF-8-like coding of a frame number. */
function codedNumber(value: number): number[] {
  if (value < 0x80) return [value];
  let continuation = 1;
  while (value >= 2 ** (6 + 5 * continuation)) continuation += 1;
  const bytes = [((0xff << (7 - continuation)) & 0xff) | Math.floor(value / 2 ** (6 * continuation))];
  for (let i = continuation - 1; i >= 0; i -= 1) bytes.push(0x80 | (Math.floor(value / 2 ** (6 * i)) & 0x3f));
  return bytes;
}

export interface FlacBombOptions {
  seconds: number;
  sampleRate: number;
  /** 1 to 8. */
  channels: number;
  /** The samples per channel STREAMINFO states, if not the true count (a header that lies). */
  statedSamples?: number;
}

/** Native FLAC, 8-bit silence, every subframe CONSTANT: a few bytes per frame of 65,535 samples. */
export function flacBomb(options: FlacBombOptions): Uint8Array {
  const blockSize = 65535;
  const total = Math.round(options.seconds * options.sampleRate);
  const stated = options.statedSamples ?? total;
  const info = new Uint8Array(34);
  const view = new DataView(info.buffer);
  view.setUint16(0, blockSize);
  view.setUint16(2, blockSize);
  // Frame sizes (24 bits each) unknown: zero. Then 20 bits rate, 3 bits channels - 1, 5 bits bits - 1, 36 bits samples.
  const packed = (BigInt(options.sampleRate) << 44n) | (BigInt(options.channels - 1) << 41n) | (7n << 36n) | BigInt(stated);
  view.setBigUint64(10, packed);
  // MD5 all zero: not computed.
  const frames: Uint8Array[] = [];
  for (let start = 0, number = 0; start < total; start += blockSize, number += 1) {
    const samples = Math.min(blockSize, total - start);
    // Block size: 16 bits at the end of the header; sample rate: 16 bits in tens of Hz (or in Hz) after it.
    // Decoders that see frames only (as codec-parser feeds them) cannot take the rate from STREAMINFO.
    const inTens = options.sampleRate % 10 === 0;
    const rate = inTens ? options.sampleRate / 10 : options.sampleRate;
    const header = new Uint8Array([
      0xff,
      0xf8,
      0x70 | (inTens ? 0x0e : 0x0d),
      ((options.channels - 1) << 4) | 0x02,
      ...codedNumber(number),
      ...u16be(samples - 1),
      ...u16be(rate),
    ]);
    const withCrc = concat([header, new Uint8Array([crc8(header)])]);
    // Per channel: subframe header (type CONSTANT) and the 8-bit value 0.
    const body = concat([withCrc, new Uint8Array(options.channels * 2)]);
    frames.push(concat([body, u16be(crc16(body))]));
  }
  return concat([latin1('fLaC'), new Uint8Array([0x80, 0, 0, 34]), info, ...frames]);
}

/** Hex SHA-256, for the reader's cache keys. */
export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * A one-page PDF drawing an inline image (BI … ID … EI) of `width` × `height` grey pixels inside
 * its content stream: no image dictionary a scan of the file can see, only pdf.js's own check.
 */
export function pdfInlineImageBomb(width: number, height: number): Uint8Array {
  const data = zlibZeros(width * height);
  const content = concat([latin1(`q 612 0 0 792 0 0 cm\nBI /W ${width} /H ${height} /BPC 8 /CS /G /F /Fl ID\n`), data, latin1('\nEI\nQ\n')]);
  const { push, finish } = pdfWriter();
  push(1, latin1('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'));
  push(2, latin1('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n'));
  push(3, latin1('3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n'));
  push(4, latin1(`4 0 obj\n<< /Length ${content.length} >>\nstream\n`), content, latin1('\nendstream\nendobj\n'));
  return finish(4);
}
