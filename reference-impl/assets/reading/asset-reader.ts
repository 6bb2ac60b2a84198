// Reads an asset's file into the text the scorer reads (seed 2.2: the service chooses how to read
// each file). One reader per kind of file, chosen by the asset's MIME type:
//
//   text/plain, text/markdown, text/html   the text itself (HTML without its markup)   main thread, not cached
//   application/pdf                        each page's text layer; a page without one  PDF worker thread,
//                                          (a scan) rendered and read by OCR           then the OCR pool
//   DOCX                                   the text of its paragraphs                  node:zlib (thread pool)
//   image/png, image/jpeg, image/webp      OCR                                         OCR pool
//   audio/*                                not here: audio.ts reads clips into acoustic features, and the
//                                          routes call it for audio assets (its result is not text alone)
//
// Everything but text files is read once per file (type + SHA-256, read-cache.ts), in the
// background at upload (readSoon) or on first use, and every asset has a time limit for its whole
// read, waiting included. The heavy libraries (pdf.js, @napi-rs/canvas, tesseract.js) load on the
// first file that needs them, so a server that never sees media never loads them.
// Memory (memory-limits.ts): every limit is checked from what the file declares before it is
// decoded, and every decode runs under the decode budget the server shares (decode-budget.ts);
// a file over a limit reads as 'over-limit', with a message naming the limit.
// Nothing here logs, and nothing read leaves this module except as the returned text.
import { availableParallelism } from 'node:os';
import type { Schemas } from '../../../spec/index.ts';
import { extractText } from '../extract-text.ts';
import type { AcceptedMimeType } from '../families.ts';
import { docxEstimate, limitMessages, MAX_DOCX_PART_BYTES, MAX_PDF_IMAGE_PIXELS, MAX_PDF_RENDER_PIXELS, pdfEstimate } from '../memory-limits.ts';
import { scanPdfImages } from '../pdf-images.ts';
import { createDecodeBudget, type DecodeBudget } from './decode-budget.ts';
import { docxText } from './docx-text.ts';
import { createOcrPool, type OcrPool } from './ocr-pool.ts';
import type { ReadOutcome } from './outcome.ts';
import { createPdfReader, type PdfFailure, type PdfReader } from './pdf-reader.ts';
import { createReadCache } from './read-cache.ts';

export type { ReadFailureKind, ReadOutcome } from './outcome.ts';

export interface AssetReaderOptions {
  /** The longest one asset's read may take, waiting for a worker included (default 60 s). */
  timeLimitMs?: number;
  /** Pictures read at once (default: one per core beyond the first, at least one, at most two). */
  ocrWorkers?: number;
  /** Files whose reads are kept (default 512). */
  cachedFiles?: number;
  /** Characters of text the kept reads hold in all (default 16 million). */
  cachedChars?: number;
  /** The pixel budget of one rendered scan page (default 9 million: a Letter page at 300 dpi). */
  maxPagePixels?: number;
  /** The decode budget the server shares between its readers (default: one of its own). */
  budget?: DecodeBudget;
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

type Reader = (bytes: Uint8Array, deadline: number, tools: ReadingTools, budget: DecodeBudget) => Promise<ReadOutcome>;

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const DEFAULT_TIME_LIMIT_MS = 60_000;

async function ocr(bytes: Uint8Array, deadline: number, tools: ReadingTools, within?: AbortSignal): Promise<ReadOutcome> {
  const outcome = await tools.ocr().recognise(bytes, deadline, within);
  if (!('failure' in outcome)) return { text: outcome.text.trim() };
  return outcome.failure === 'over-limit' ? { failure: 'over-limit', message: outcome.message } : { failure: 'picture-unread' };
}

const readPicture: Reader = (bytes, deadline, tools) => ocr(bytes, deadline, tools);

const pdfFailure = (failure: PdfFailure): ReadOutcome => {
  if (failure.failure === 'over-limit') return { failure: 'over-limit', message: failure.message };
  return { failure: failure.failure === 'undecodable' ? 'undecodable' : 'picture-unread' };
};

async function readPdf(bytes: Uint8Array, deadline: number, tools: ReadingTools, budget: DecodeBudget): Promise<ReadOutcome> {
  // What the file's images declare, before pdf.js decodes any (pdf.js leaves out larger ones too).
  const images = scanPdfImages(bytes, MAX_PDF_IMAGE_PIXELS);
  if (images.over) return { failure: 'over-limit', message: limitMessages.pdfImagePixels(images.over.width, images.over.height) };
  // One reservation for the whole file: pages come one at a time, and a scan is read by OCR,
  // under the same reservation, before the next page is rendered.
  const step = await budget.run(pdfEstimate(images.largestPixels), deadline, async (signal) => {
    const texts: string[] = [];
    let unread: ReadOutcome | undefined;
    const outcome = await tools.pdf().read(
      bytes,
      deadline,
      async (page) => {
        if ('text' in page) {
          texts.push(page.text);
          return undefined;
        }
        const read = await ocr(page.image, deadline, tools, signal);
        if ('failure' in read) {
          unread = read;
          return { failure: 'timed-out' };
        }
        texts.push(read.text);
        return undefined;
      },
      signal,
    );
    if (unread) return unread;
    if ('failure' in outcome) return pdfFailure(outcome);
    return { text: texts.filter((text) => text !== '').join('\n') };
  });
  if ('value' in step) return step.value;
  return step.failure === 'over-memory' ? { failure: 'over-limit', message: limitMessages.memory() } : { failure: 'picture-unread' };
}

async function readDocx(bytes: Uint8Array, deadline: number, _tools: ReadingTools, budget: DecodeBudget): Promise<ReadOutcome> {
  // Inflating reserves what the largest allowed part costs; the inflating itself stops at that size.
  const step = await budget.run(docxEstimate(MAX_DOCX_PART_BYTES), deadline, () => docxText(bytes));
  if ('failure' in step) return step.failure === 'over-memory' ? { failure: 'over-limit', message: limitMessages.memory() } : { failure: 'picture-unread' };
  const read = step.value;
  if (!('failure' in read)) return { text: read.text };
  if (read.failure === 'undecodable') return { failure: 'undecodable' };
  return { failure: 'over-limit', message: read.part ? limitMessages.docxPart(read.part) : limitMessages.text() };
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
  const cache = createReadCache(options.cachedFiles ?? 512, options.cachedChars ?? 16_000_000);
  const budget = options.budget ?? createDecodeBudget();
  let ocr: OcrPool | undefined;
  let pdf: PdfReader | undefined;
  const tools: ReadingTools = {
    ocr: () => (ocr ??= createOcrPool({ workers: options.ocrWorkers ?? Math.min(2, Math.max(1, availableParallelism() - 1)), budget })),
    pdf: () => (pdf ??= createPdfReader({ maxPagePixels: options.maxPagePixels ?? MAX_PDF_RENDER_PIXELS, budget })),
  };

  function read(asset: Pick<Schemas['Asset'], 'mime_type' | 'sha256'>, bytes: Uint8Array): Promise<ReadOutcome> {
    const mimeType = asset.mime_type as AcceptedMimeType;
    if (mimeType.startsWith('text/')) return Promise.resolve({ text: extractText(bytes, mimeType) ?? '' });
    const reader = readers[mimeType];
    if (!reader) return Promise.resolve({ text: '' });
    return cache.get(cacheKey(asset), () => reader(bytes, Date.now() + timeLimitMs, tools, budget).catch(() => ({ failure: 'undecodable' as const })));
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
