// k6's raw samples, read back so that the kit computes a k6 run's percentiles the way it computes
// the Node runner's (percentiles.ts): k6 writes every metric point to a gzip-compressed CSV
// (`--out csv=...gz`), from which each request's duration, name, status and start are recorded
// into a latency recorder as the file streams by, never one object per request: a 30-minute
// soak writes some 13 million requests (about 15 GB of CSV, 20 rows a request), a distributed
// run one file per pod.
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { createLatencyRecorder, type LatencyRecorder, mergeRecorders } from './percentiles.ts';

/** The k6 flags and environment that make it write what `recordK6Samples` reads. */
export function k6SampleOutput(path: string): { args: string[]; env: Record<string, string> } {
  return {
    // Fewer tags, fewer bytes per point; check and group keep k6's per-check summary intact.
    args: ['--out', `csv=${path}`, '--system-tags', 'name,status,check,group'],
    // k6's default CSV timestamps are whole seconds: too coarse to place a request in its window.
    env: { K6_CSV_TIME_FORMAT: 'unix_micro' },
  };
}

/** What one file held, for merging runs: its requests (answered or not) and the time they span. */
export interface K6FileFacts {
  path: string;
  /** Requests of the scenario (setup and teardown left out), with or without a response. */
  requests: number;
  /** The earliest request start and the latest response end, in absolute µs since the epoch; undefined without requests. */
  firstStartUs: number | undefined;
  lastEndUs: number | undefined;
}

export interface K6Recording {
  /** The run's time origin, the earliest request start over all files (absolute µs); undefined without requests. */
  originUs: number | undefined;
  files: K6FileFacts[];
  /** Whether the files were read a second time, the provisional origin not being the exact one (recordK6Samples). */
  reread: boolean;
}

/**
 * How far past a file's first response the provisional origin is looked for (below). k6 writes a
 * request's points when its response ends, so the earliest-starting request is among those that
 * end within its own duration of the first response: 15 s covers every request shorter than that.
 */
export const ORIGIN_HEAD_SPAN_MS = 15_000;

/**
 * Records every request of the scenario (setup and teardown left out) of the k6 CSV outputs at
 * `paths` (one per generator of a distributed run) into `recorder`. A point's timestamp is when
 * the response ended, so a request started at timestamp − duration; `startedMs` counts from the
 * earliest start over all files, so that the files' timeline windows align.
 *
 * That origin is known exactly only once every file is read. The earliest-starting request comes
 * early in a file (above), so the first `headSpanMs` of each file give a provisional origin; one
 * pass records with it into a recorder of its own while finding the exact origin, and is added to
 * `recorder` when the two agree. Should they differ (a request slower than the head span started
 * first), the files are read once more with the exact origin: windows never shift.
 */
export async function recordK6Samples(paths: readonly string[], recorder: LatencyRecorder, options: { headSpanMs?: number } = {}): Promise<K6Recording> {
  const headSpanUs = (options.headSpanMs ?? ORIGIN_HEAD_SPAN_MS) * 1000;
  let provisionalUs = Infinity;
  for (const path of paths) {
    let firstEndUs: number | undefined;
    await scanK6Requests(path, (_name, endUs, durationMs) => {
      firstEndUs ??= endUs;
      provisionalUs = Math.min(provisionalUs, endUs - durationMs * 1000);
      return endUs - firstEndUs <= headSpanUs;
    });
  }
  const trial = createLatencyRecorder(recorder.definition);
  const files: K6FileFacts[] = [];
  for (const path of paths) files.push(await recordFile(path, trial, provisionalUs));
  const originUs = Math.min(...files.map((file) => file.firstStartUs ?? Infinity));
  if (originUs === Infinity) return { originUs: undefined, files, reread: false };
  const reread = originUs !== provisionalUs;
  if (reread) for (const path of paths) await recordFile(path, recorder, originUs);
  else mergeRecorders(recorder, trial);
  return { originUs, files, reread };
}

async function recordFile(path: string, recorder: LatencyRecorder, originUs: number): Promise<K6FileFacts> {
  const facts: K6FileFacts = { path, requests: 0, firstStartUs: undefined, lastEndUs: undefined };
  await scanK6Requests(path, (name, endUs, durationMs, status) => {
    const startUs = endUs - durationMs * 1000;
    facts.requests++;
    if (facts.firstStartUs === undefined || startUs < facts.firstStartUs) facts.firstStartUs = startUs;
    if (facts.lastEndUs === undefined || endUs > facts.lastEndUs) facts.lastEndUs = endUs;
    recorder.record(name, (startUs - originUs) / 1000, durationMs, status);
    return true;
  });
  return facts;
}

/** One request's point; returns whether to read on. */
type RequestVisitor = (name: string, endUs: number, durationMs: number, status: number) => boolean;

const NEWLINE = 0x0a;
/** A request duration's row, found with the newline before it: one native search skips the ~20 other rows a request has. */
const DURATION_ROW = Buffer.from('\nhttp_req_duration,');
const REQUIRED_COLUMNS = ['metric_name', 'timestamp', 'metric_value', 'name', 'status', 'group'] as const;

interface Columns {
  timestamp: number;
  value: number;
  name: number;
  status: number;
  group: number;
}

function columnsOf(header: string): Columns {
  const index = new Map(header.split(',').map((column, position) => [column, position]));
  for (const needed of REQUIRED_COLUMNS) if (!index.has(needed)) throw new Error(`no ${needed} column in its header: ${header}`);
  return {
    timestamp: index.get('timestamp')!,
    value: index.get('metric_value')!,
    name: index.get('name')!,
    status: index.get('status')!,
    group: index.get('group')!,
  };
}

/**
 * Calls `visit` with each request duration point of the scenario in the gzip CSV at `path`, in
 * file order, until it returns false. Works on the decompressed bytes: only the duration rows
 * become strings and numbers.
 */
async function scanK6Requests(path: string, visit: RequestVisitor): Promise<void> {
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const gunzip = createGunzip({ chunkSize: 1 << 18 });
  file.on('error', (error) => gunzip.destroy(error));
  file.pipe(gunzip);
  let columns: Columns | undefined;
  // The incomplete last line of the previous chunk, from the newline before it.
  let carry: Buffer | undefined;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      const data = carry ? Buffer.concat([carry, chunk]) : chunk;
      let from = 0;
      if (!columns) {
        const headerEnd = data.indexOf(NEWLINE);
        if (headerEnd < 0) {
          carry = data;
          continue;
        }
        columns = columnsOf(data.toString('utf8', 0, headerEnd).replace(/\r$/, ''));
        from = headerEnd;
      }
      const complete = data.lastIndexOf(NEWLINE);
      if (!visitRows(data, from, complete, columns, visit)) return;
      carry = data.subarray(complete);
    }
    if (!columns) throw new Error('it has no header line');
    // The last line, when the file does not end with a newline.
    if (carry && carry.length > 1) {
      const data = Buffer.concat([carry, Buffer.of(NEWLINE)]);
      visitRows(data, 0, data.length - 1, columns, visit);
    }
  } catch (error) {
    throw new Error(`cannot read k6's CSV output ${path}: ${(error as Error).message}`, { cause: error });
  } finally {
    file.destroy();
    gunzip.destroy();
  }
}

/** Visits the duration rows that start after the newline at `from` and end at or before the newline at `complete`. */
function visitRows(data: Buffer, from: number, complete: number, columns: Columns, visit: RequestVisitor): boolean {
  for (let at = data.indexOf(DURATION_ROW, from); at !== -1 && at < complete; at = data.indexOf(DURATION_ROW, at + 1)) {
    const start = at + 1;
    const end = data.indexOf(NEWLINE, start);
    const fields = fieldsOf(data, start, end > start && data[end - 1] === 0x0d ? end - 1 : end);
    const group = fields[columns.group];
    if (group === '::setup' || group === '::teardown') continue;
    // Number('') is 0: an empty timestamp or value is as unreadable as a word.
    const endUs = Number(fields[columns.timestamp] || Number.NaN);
    const durationMs = Number(fields[columns.value] || Number.NaN);
    const status = Number(fields[columns.status] || 0);
    if (!Number.isFinite(endUs) || !(durationMs >= 0) || !Number.isInteger(status))
      throw new Error(`unreadable request duration point: ${data.toString('utf8', start, end)}`);
    if (!visit(fields[columns.name] ?? '', endUs, durationMs, status)) return false;
  }
  return true;
}

/** The fields of the line data[start, end): split at commas, with CSV quoting (k6 quotes a tag holding a comma or a quote). */
function fieldsOf(data: Buffer, start: number, end: number): string[] {
  const line = data.toString('utf8', start, end);
  if (!line.includes('"')) return line.split(',');
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char !== '"') field += char;
      else if (line[i + 1] === '"') field += line[++i];
      else quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}
