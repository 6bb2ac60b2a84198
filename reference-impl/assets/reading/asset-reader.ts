// Reads an asset's file into the text the scorer reads (seed 2.2: the service chooses how to read
// each file). One reader per kind of file, chosen by the asset's MIME type:
//
//   text/plain, text/markdown, text/html   the text itself (HTML without its markup)   main thread, not cached
//   application/pdf                        each page's text layer; a page without one  PDF worker thread,
//                                          (a scan) rendered and read by OCR           then the OCR pool
//   DOCX                                   the text of its paragraphs                  fflate's unzip workers
//   image/png, image/jpeg, image/webp      OCR                                         OCR pool
//   audio/*                                not here: audio.ts reads clips into acoustic features, and the
//                                          routes call it for audio assets (its result is not text alone)
//
// Everything but text files is read once per file (type + SHA-256, read-cache.ts), in the
// background at upload (readSoon) or on first use, and every asset has a time limit for its whole
// read, waiting included. The heavy libraries (pdf.js, @napi-rs/canvas, tesseract.js) load on the
// first file that needs them, so a server that never sees media never loads them.
// Nothing here logs, and nothing read leaves this module except as the returned text.
import { availableParallelism } from 'node:os';
import type { Schemas } from '../../../spec/index.ts';
import { extractText } from '../extract-text.ts';
import type { AcceptedMimeType } from '../families.ts';
import { docxText } from './docx-text.ts';
import { createOcrPool, type OcrPool } from './ocr-pool.ts';
import type { ReadOutcome } from './outcome.ts';
import { createPdfReader, type PdfReader } from './pdf-reader.ts';
import { createReadCache } from './read-cache.ts';

export type { ReadFailureKind, ReadOutcome } from './outcome.ts';

export interface AssetReaderOptions {
  /** The longest one asset's read may take, waiting for a worker included (default 60 s). */
  timeLimitMs?: number;
  /** Pictures read at once (default: one per core beyond the first, at least one). */
  ocrWorkers?: number;
  /** Files whose reads are kept (default 512). */
  cachedFiles?: number;
  /** The pixel budget of one rendered scan page (default 9 million: a Letter page at 300 dpi). */
  maxPagePixels?: number;
}

export interface AssetReader {
  /** The text of an asset's file, from the cache when it was read before. */
  read(asset: Pick<Schemas['Asset'], 'mime_type' | 'sha256'>, bytes: Uint8Array): Promise<ReadOutcome>;
  /** Starts reading a new upload in the background, so that its first decision finds it read. */
  readSoon(asset: Pick<Schemas['Asset'], 'mime_type' | 'sha256'>, bytes: Uint8Array): void;
  /** Whether the asset's file has been read (and is still cached); text files need no reading. */
  isRead(asset: Pick<Schemas['Asset'], 'mime_type' | 'sha256'>): boolean;
  close(): Promise<void>;
}

interface ReadingTools {
  ocr: () => OcrPool;
  pdf: () => PdfReader;
}

type Reader = (bytes: Uint8Array, deadline: number, tools: ReadingTools) => Promise<ReadOutcome>;

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const DEFAULT_TIME_LIMIT_MS = 60_000;

async function readPicture(bytes: Uint8Array, deadline: number, tools: ReadingTools): Promise<ReadOutcome> {
  const outcome = await tools.ocr().recognise(bytes, deadline);
  return 'failure' in outcome ? { failure: 'picture-unread' } : { text: outcome.text.trim() };
}

async function readPdf(bytes: Uint8Array, deadline: number, tools: ReadingTools): Promise<ReadOutcome> {
  const outcome = await tools.pdf().read(bytes, deadline);
  if ('failure' in outcome) return { failure: outcome.failure === 'undecodable' ? 'undecodable' : 'picture-unread' };
  const texts: string[] = [];
  for (const page of outcome.pages) {
    if ('text' in page) {
      texts.push(page.text);
      continue;
    }
    const read = await readPicture(page.image, deadline, tools);
    if ('failure' in read) return read;
    texts.push(read.text);
  }
  return { text: texts.filter((text) => text !== '').join('\n') };
}

async function readDocx(bytes: Uint8Array): Promise<ReadOutcome> {
  const text = await docxText(bytes);
  return text === undefined ? { failure: 'undecodable' } : { text };
}

/** The reader of each accepted type; a type without one contributes no text. */
const readers: Partial<Record<AcceptedMimeType, Reader>> = {
  'application/pdf': readPdf,
  [docxType]: readDocx,
  'image/png': readPicture,
  'image/jpeg': readPicture,
  'image/webp': readPicture,
};

const cacheKey = (asset: Pick<Schemas['Asset'], 'mime_type' | 'sha256'>): string => `${asset.mime_type} ${asset.sha256.toLowerCase()}`;

export function createAssetReader(options: AssetReaderOptions = {}): AssetReader {
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  const cache = createReadCache(options.cachedFiles ?? 512);
  let ocr: OcrPool | undefined;
  let pdf: PdfReader | undefined;
  const tools: ReadingTools = {
    ocr: () => (ocr ??= createOcrPool({ workers: options.ocrWorkers ?? Math.max(1, availableParallelism() - 1) })),
    pdf: () => (pdf ??= createPdfReader({ maxPagePixels: options.maxPagePixels ?? 9_000_000 })),
  };

  function read(asset: Pick<Schemas['Asset'], 'mime_type' | 'sha256'>, bytes: Uint8Array): Promise<ReadOutcome> {
    const mimeType = asset.mime_type as AcceptedMimeType;
    if (mimeType.startsWith('text/')) return Promise.resolve({ text: extractText(bytes, mimeType) ?? '' });
    const reader = readers[mimeType];
    if (!reader) return Promise.resolve({ text: '' });
    return cache.get(cacheKey(asset), () => reader(bytes, Date.now() + timeLimitMs, tools).catch(() => ({ failure: 'undecodable' as const })));
  }

  return {
    read,
    readSoon(asset, bytes) {
      if (asset.mime_type.startsWith('text/') || !readers[asset.mime_type as AcceptedMimeType]) return;
      void read(asset, bytes);
    },
    isRead: (asset) => asset.mime_type.startsWith('text/') || !readers[asset.mime_type as AcceptedMimeType] || cache.has(cacheKey(asset)),
    async close() {
      await Promise.all([ocr?.close(), pdf?.close()]);
    },
  };
}
