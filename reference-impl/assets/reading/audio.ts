// Reading audio assets (seed 2.2: "speech transcription plus acoustic features"). This server
// measures acoustic features only: no offline speech recogniser of usable quality ships in the
// npm registry, so there is no transcript (what a decision then answers: open point
// audio-without-transcript in spec/openapi.yaml).
//
// Decoding and measuring run in one worker thread (audio-worker.mjs), started on the first
// audio file, so the thread that answers requests never spends a decode's time; the decoders
// are imported inside the worker on first use, so they cost a server start nothing. Readings are
// kept by the file's SHA-256 and type: the upload starts one in the background and the first
// decision referencing the asset finds it done, or waits for the one in flight.
//
// Memory (memory-limits.ts): a clip holding more than `maxSamples` decoded samples fails with
// DECODE_FAILED saying so (WAV and FLAC are counted from their frame headers before decoding;
// uploads are checked against what their stream headers declare); every decode runs under the
// server's decode budget, whose watchdog may end the worker; the worker ends when idle.
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { audioEstimate, IDLE_WORKER_MS, limitMessages, MAX_AUDIO_SAMPLES } from '../memory-limits.ts';
import { createDecodeBudget, type DecodeBudget } from './decode-budget.ts';

/** What the scorer can use from an audio file (acoustic-features.mjs says how each is measured). */
export interface AcousticFeatures {
  durationSeconds: number;
  sampleRate: number;
  /** Channels of the decoded audio. */
  channels: number;
  /** Loudness: RMS of all samples, dB relative to full scale (a full-scale sine is -3.01). */
  rmsDbfs: number;
  peakDbfs: number;
  /** Share of 20 ms frames below -50 dBFS, 0 to 1. */
  silenceShare: number;
}

/**
 * A reading: the features, or why the file cannot be read. Only DECODE_FAILED exists: without a
 * transcription step this server never produces ASR_FAILED (open point audio-without-transcript).
 * Messages name the type and the fault, never the file's content (seed 2.5).
 */
export type AudioReading = { features: AcousticFeatures } | { failure: { code: 'DECODE_FAILED'; message: string } };

export interface AudioReader {
  /** Never rejects. `sha256` (hex) saves hashing when the caller has it (the asset record does). */
  read(bytes: Uint8Array, mimeType: string, sha256?: string): Promise<AudioReading>;
  /** Stops the worker; reads still in flight answer DECODE_FAILED, later reads start a new worker. */
  close(): Promise<void>;
  /** Worker readings done (cache hits and shared in-flight readings excluded). */
  readonly stats: { decodes: number };
}

export interface AudioReaderOptions {
  /** A reading taking longer than this answers DECODE_FAILED and restarts the worker. Default 20 s. */
  timeoutMs?: number;
  /**
   * The longest a reading waits for room in the decode budget before its decode starts (other
   * files being read). Default 60 s, the asset reader's limit for a whole read. The wait is the
   * server's load, not the file's: the decode's own limit (`timeoutMs`) counts from its start.
   */
  waitLimitMs?: number;
  /** Readings kept. Default 512 (each is a few numbers). */
  cacheEntries?: number;
  /** Decoded samples (frames × channels) a clip may hold. Default MAX_AUDIO_SAMPLES. */
  maxSamples?: number;
  /** The decode budget the server shares between its readers (default: one of its own). */
  budget?: DecodeBudget;
  /** The worker ends after this long without a reading. Default IDLE_WORKER_MS. */
  idleMs?: number;
}

const WORKER_URL = new URL('./audio-worker.mjs', import.meta.url);
/** A 30 s clip (the seed's limit) decodes in well under a second; 20 s means the worker is stuck. */
const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_WAIT_LIMIT_MS = 60_000;
const DEFAULT_CACHE_ENTRIES = 512;

type WorkerReply = { id: number; features: AcousticFeatures } | { id: number; failure: string } | { id: number; overLimit: true };

/** `final`: the worker's verdict on the file, kept; otherwise the worker stopped first, and it is not. */
interface Outcome {
  reading: AudioReading;
  final: boolean;
}

interface Pending {
  resolve(outcome: Outcome): void;
  timer: NodeJS.Timeout;
}

const decodeFailed = (message: string): AudioReading => ({ failure: { code: 'DECODE_FAILED', message } });

export function createAudioReader(options: AudioReaderOptions = {}): AudioReader {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const waitLimitMs = options.waitLimitMs ?? DEFAULT_WAIT_LIMIT_MS;
  const cacheEntries = options.cacheEntries ?? DEFAULT_CACHE_ENTRIES;
  const maxSamples = options.maxSamples ?? MAX_AUDIO_SAMPLES;
  const budget = options.budget ?? createDecodeBudget();
  const idleMs = options.idleMs ?? IDLE_WORKER_MS;
  const cache = new Map<string, Promise<AudioReading>>();
  const pending = new Map<number, Pending>();
  const stats = { decodes: 0 };
  let worker: Worker | undefined;
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | undefined;
  /** Counts close() calls: a reading started before one answers DECODE_FAILED, even if still waiting for the budget. */
  let closings = 0;

  /** Ends an idle worker (no reading in flight), and its memory with it. */
  const endIdle = (): void => {
    if (pending.size > 0 || !worker) return;
    const idle = worker;
    worker = undefined;
    void idle.terminate();
  };
  // The budget may be the process's, outliving this reader: close() takes the releaser back.
  const stopReleasing = budget.onPressure(endIdle);

  /** Ends every reading in flight with `message` and drops the worker (the next read starts another). */
  const abandonWorker = (message: string): void => {
    const stopped = worker;
    worker = undefined;
    for (const [id, entry] of pending) {
      clearTimeout(entry.timer);
      entry.resolve({ reading: decodeFailed(message), final: false });
      pending.delete(id);
    }
    void stopped?.terminate();
  };

  const startedWorker = (): Worker => {
    if (worker) return worker;
    const started = new Worker(WORKER_URL);
    // An idle worker must not keep a stopping server alive; a busy one keeps the process up until it answers.
    started.unref();
    started.on('message', (reply: WorkerReply) => {
      const entry = pending.get(reply.id);
      if (!entry) return;
      pending.delete(reply.id);
      if (pending.size === 0) {
        started.unref();
        clearTimeout(idleTimer);
        idleTimer = setTimeout(endIdle, idleMs);
        idleTimer.unref();
      }
      clearTimeout(entry.timer);
      stats.decodes += 1;
      const reading = 'features' in reply ? { features: reply.features } : decodeFailed('overLimit' in reply ? limitMessages.audioDecoded() : reply.failure);
      entry.resolve({ reading, final: true });
    });
    started.on('error', () => {
      if (worker === started) abandonWorker('The audio decoder stopped while reading the file.');
    });
    started.on('exit', () => {
      if (worker === started) abandonWorker('The audio decoder stopped while reading the file.');
    });
    worker = started;
    return started;
  };

  const readInWorker = (bytes: Uint8Array, mimeType: string, signal: AbortSignal, closing: number): Promise<Outcome> =>
    new Promise((resolve) => {
      if (closing !== closings) {
        resolve({ reading: decodeFailed('The server is stopping.'), final: false });
        return;
      }
      if (signal.aborted) {
        resolve({ reading: decodeFailed(limitMessages.memory()), final: false });
        return;
      }
      const id = nextId;
      nextId += 1;
      // The budget's watchdog: the worker ends, and this reading is tried again alone.
      signal.addEventListener('abort', () => {
        if (pending.has(id)) abandonWorker(limitMessages.memory());
      });
      // A copy of its own is moved to the worker: the caller's buffer stays usable.
      const copy = new Uint8Array(bytes);
      const timer = setTimeout(() => {
        if (pending.has(id)) abandonWorker(`The ${mimeType} file could not be decoded in ${timeoutMs / 1000} s.`);
      }, timeoutMs);
      timer.unref();
      pending.set(id, { resolve, timer });
      clearTimeout(idleTimer);
      const running = startedWorker();
      running.ref();
      running.postMessage({ id, bytes: copy, mimeType, maxSamples }, [copy.buffer]);
    });

  /** One decode under the budget: what the largest clip allowed may take. */
  const decode = async (bytes: Uint8Array, mimeType: string): Promise<Outcome> => {
    const closing = closings;
    // Under a busy budget (several PDFs and pictures read at once) the wait alone can pass the
    // decode's limit; counted against it, an ordinary clip would be refused as if it had stalled.
    const step = await budget.run(audioEstimate(maxSamples), Date.now() + waitLimitMs, (signal) => readInWorker(bytes, mimeType, signal, closing));
    if ('value' in step) return step.value;
    const message =
      step.failure === 'over-memory'
        ? limitMessages.memory()
        : `The ${mimeType} file waited ${waitLimitMs / 1000} s for the server's other files to be read, and was not decoded.`;
    return { reading: decodeFailed(message), final: false };
  };

  return {
    read(bytes, mimeType, sha256) {
      const key = `${sha256 ?? createHash('sha256').update(bytes).digest('hex')} ${mimeType}`;
      const known = cache.get(key);
      if (known) return known;
      const reading = decode(bytes, mimeType).then(({ reading: result, final }) => {
        // A reading the worker did not finish (stopped, timed out) is not the file's verdict: not kept.
        if (!final && cache.get(key) === reading) cache.delete(key);
        return result;
      });
      cache.set(key, reading);
      if (cache.size > cacheEntries) cache.delete(cache.keys().next().value!);
      return reading;
    },
    async close() {
      closings += 1;
      stopReleasing();
      clearTimeout(idleTimer);
      if (worker) abandonWorker('The server is stopping.');
    },
    stats,
  };
}
