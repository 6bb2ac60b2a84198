// k6's raw samples, read back so that the kit computes a k6 run's percentiles the way it computes
// the Node runner's (percentiles.ts): k6 writes every metric point to a gzip-compressed CSV
// (`--out csv=...gz`), from which each request's duration, name, status and start are taken.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { RequestSample } from './runner/samples.ts';

/** The k6 flags and environment that make it write what `readK6Samples` reads. */
export function k6SampleOutput(path: string): { args: string[]; env: Record<string, string> } {
  return {
    // Fewer tags, fewer bytes per point; check and group keep k6's per-check summary intact.
    args: ['--out', `csv=${path}`, '--system-tags', 'name,status,check,group'],
    // k6's default CSV timestamps are whole seconds: too coarse to place a request in its window.
    env: { K6_CSV_TIME_FORMAT: 'unix_micro' },
  };
}

/**
 * Every request of the run's scenario (setup and teardown left out), in the order k6 wrote them.
 * A point's timestamp is when the response ended, so a request started at timestamp − duration;
 * `startedMs` counts from the first request's start, as the Node runner's does.
 */
export async function readK6Samples(path: string): Promise<RequestSample[]> {
  const lines = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity });
  let columns: Record<string, number> | undefined;
  const points: { name: string; endUs: number; durationMs: number; status: number }[] = [];
  for await (const line of lines) {
    if (!columns) {
      columns = Object.fromEntries(line.split(',').map((column, index) => [column, index]));
      for (const needed of ['metric_name', 'timestamp', 'metric_value', 'name', 'status', 'group'])
        if (columns[needed] === undefined) throw new Error(`k6's CSV output has no ${needed} column: ${line}`);
      continue;
    }
    // Only request durations are read; their fields (request names, statuses, group) hold no commas or quotes.
    if (!line.startsWith('http_req_duration,')) continue;
    const fields = line.split(',');
    const group = fields[columns.group!]!;
    if (group === '::setup' || group === '::teardown') continue;
    points.push({
      name: fields[columns.name!]!,
      endUs: Number(fields[columns.timestamp!]),
      durationMs: Number(fields[columns.metric_value!]),
      status: Number(fields[columns.status!] || 0),
    });
  }
  let firstStartMs = Infinity;
  for (const point of points) firstStartMs = Math.min(firstStartMs, point.endUs / 1000 - point.durationMs);
  return points.map((point) => ({
    name: point.name,
    startedMs: point.endUs / 1000 - point.durationMs - firstStartMs,
    durationMs: point.durationMs,
    status: point.status,
  }));
}
