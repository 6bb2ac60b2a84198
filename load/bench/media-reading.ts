// `npx tsx load/bench/media-reading.ts`: how the reference server reads media (assets/reading/),
// and what it costs text-only decisions. Prints, asserts nothing:
//   1. read latency per kind of file (the reader alone): cold (first file of its kind: libraries
//      and workers start), warm (another file, workers running) and cached (the same file again);
//   2. OCR character accuracy on the generated fixtures (1 - edit distance / length);
//   3. spawn of the server (as `npm run serve` starts it) to its first text-only decision,
//      median of 3: the media libraries load lazily, so this must not change;
//   4. over HTTP, the server started as `npm run serve` starts it: text-only decide throughput
//      before any media and after media were read, and decide latency with one image and one PDF.
// BENCH_DURATION_S (default 5) seconds per throughput run. BENCH_BASELINE_ROOT: another checkout
// of the kit (e.g. the commit before media reading), whose server's text-only throughput is
// measured the same way for comparison.
import autocannon from 'autocannon';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { request } from 'undici';
import { docxWithPages, pdfWithPages } from '../../harness/samples/media.ts';
import { scannedPdf } from '../../harness/samples/scanned-pdf.ts';
import { textPicture } from '../../harness/samples/text-picture.ts';
import { createAssetReader } from '../../reference-impl/assets/reading/asset-reader.ts';
import { apiKeyPrefix } from '../../spec/index.ts';
import { coldStart } from '../cold-start.ts';
import { startKeyedServer } from '../server-process.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const KEY = `${apiKeyPrefix}bench_media_reading_key`;
const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const headers = { authorization: `Bearer ${KEY}` };

const lines = (n: number) =>
  ['Refund for a double charge on order 4471.', 'The parcel left the depot on 12 March.', 'Invoice total: 84.20 EUR, paid by card.'].map(
    (line) => `${line} (${n})`,
  );
const expected = (n: number) => lines(n).join('\n');

interface Fixture {
  kind: string;
  type: string;
  make: (n: number) => Uint8Array;
  ocr: boolean;
}
const fixtures: Fixture[] = [
  { kind: 'PNG screenshot', type: 'image/png', make: (n) => textPicture(lines(n)), ocr: true },
  { kind: 'JPEG screenshot', type: 'image/jpeg', make: (n) => textPicture(lines(n), 'image/jpeg'), ocr: true },
  { kind: 'WebP screenshot', type: 'image/webp', make: (n) => textPicture(lines(n), 'image/webp'), ocr: true },
  { kind: 'scanned PDF (1 page)', type: 'application/pdf', make: (n) => scannedPdf([lines(n)]), ocr: true },
  { kind: 'text-layer PDF (3 pages)', type: 'application/pdf', make: (n) => pdfWithPages(3, { pageText: (page) => lines(n)[page - 1]! }), ocr: false },
  { kind: 'DOCX (1 page)', type: docxType, make: (n) => docxWithPages(1, { pageText: () => lines(n).join(' ') }), ocr: false },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function timedRead(reader: ReturnType<typeof createAssetReader>, fixture: Fixture, bytes: Uint8Array) {
  const started = performance.now();
  const outcome = await reader.read({ mime_type: fixture.type as 'image/png', sha256: sha256(bytes) }, bytes);
  return { ms: performance.now() - started, text: 'text' in outcome ? outcome.text : `(${outcome.failure})` };
}

console.log('1. Read latency (the reader alone, one OCR worker), and 2. OCR character accuracy');
console.log(`   ${'file'.padEnd(26)} ${'cold'.padStart(10)} ${'warm (median of 5)'.padStart(20)} ${'cached'.padStart(10)}   accuracy`);
for (const fixture of fixtures) {
  const reader = createAssetReader({ ocrWorkers: 1 });
  const cold = await timedRead(reader, fixture, fixture.make(0));
  const warm: number[] = [];
  const accuracies: number[] = [];
  for (let n = 1; n <= 5; n += 1) {
    const read = await timedRead(reader, fixture, fixture.make(n));
    warm.push(read.ms);
    const truth = expected(n);
    accuracies.push(1 - editDistance(read.text.replace(/\s+/g, ' ').trim(), truth.replace(/\s+/g, ' ')) / truth.length);
  }
  const cached = await timedRead(reader, fixture, fixture.make(1));
  const accuracy = `${(median(accuracies) * 100).toFixed(1)} %${fixture.ocr ? ' (OCR)' : ''}`;
  console.log(`   ${fixture.kind.padEnd(26)} ${ms(cold.ms).padStart(10)} ${ms(median(warm)).padStart(20)} ${ms(cached.ms).padStart(10)}   ${accuracy}`);
  await reader.close();
}

const questions = {
  topic: { type: 'choice', options: { billing: 'Payments, charges, refunds and invoices', shipping: 'Delivery, parcels and tracking', other: '' } },
};
const textBody = JSON.stringify({ context: 'I was charged twice for the same order and want the second charge refunded.', questions });

async function textThroughput(baseUrl: string): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const run = () =>
    autocannon({
      url: `${baseUrl}/v1/decide`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: textBody,
      connections: 8,
      duration: DURATION_S,
    });
  await autocannon({
    url: `${baseUrl}/v1/decide`,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: textBody,
    connections: 8,
    duration: 1,
  });
  const result = await run();
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}
const showThroughput = (name: string, t: { rps: number; p50: number; p99: number; errors: number }) =>
  console.log(`   ${name.padEnd(46)} ${t.rps.toFixed(0).padStart(6)} req/s   p50 ${t.p50} ms   p99 ${t.p99} ms   errors ${t.errors}`);

async function upload(baseUrl: string, type: string, bytes: Uint8Array): Promise<string> {
  const response = await request(`${baseUrl}/v1/assets`, { method: 'POST', headers: { ...headers, 'content-type': type }, body: bytes });
  const json = (await response.body.json()) as { id: string };
  return json.id;
}

async function decideMs(baseUrl: string, part: { type: string; asset_id: string }): Promise<number> {
  const started = performance.now();
  const response = await request(`${baseUrl}/v1/decide`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ context: [{ type: 'text', text: 'Attached:' }, part], questions }),
  });
  await response.body.text();
  if (response.statusCode !== 200) throw new Error(`decide answered ${response.statusCode}`);
  return performance.now() - started;
}

function serve(root: string) {
  return startKeyedServer({ command: [process.execPath, join(root, 'reference-impl/start.mjs')], key: KEY, serverOptions: ['--rate-limit', '1000000'] });
}

/**
 * One server: text-only throughput fresh, then uploads and decisions with each kind of media
 * (their latencies printed), then text-only throughput again. The same sequence runs on the
 * baseline checkout, which accepts the same uploads but does not read them.
 */
async function httpRun(label: string, root: string): Promise<void> {
  const server = await serve(root);
  try {
    showThroughput(`${label}: text-only decide, fresh`, await textThroughput(server.baseUrl));
    for (const [name, type, make, part] of [
      ['one PNG screenshot', 'image/png', (n: number) => textPicture(lines(n)), 'image'],
      ['one scanned PDF page', 'application/pdf', (n: number) => scannedPdf([lines(n)]), 'document'],
      ['one text-layer PDF', 'application/pdf', (n: number) => pdfWithPages(3, { pageText: (page) => lines(n)[page - 1]! }), 'document'],
    ] as const) {
      // Decided at once after the upload: the decision waits for the background read.
      const firstUses: number[] = [];
      const cached: number[] = [];
      for (let n = 100; n < 103; n += 1) {
        const id = await upload(server.baseUrl, type, make(n));
        firstUses.push(await decideMs(server.baseUrl, { type: part, asset_id: id }));
        for (let i = 0; i < 10; i += 1) cached.push(await decideMs(server.baseUrl, { type: part, asset_id: id }));
      }
      console.log(
        `   ${label}: decide with ${name.padEnd(21)} right after upload ${ms(median(firstUses)).padStart(9)}   read before ${ms(median(cached)).padStart(8)}   (medians)`,
      );
    }
    showThroughput(`${label}: text-only decide, after media`, await textThroughput(server.baseUrl));
  } finally {
    await server.stop();
  }
}

async function firstDecide(label: string, root: string): Promise<void> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i += 1)
    runs.push((await coldStart({ command: [process.execPath, join(root, 'reference-impl/start.mjs')], body: textBody })).firstDecideMs);
  console.log(`   ${label}: spawn → first decide median ${ms(median(runs))} (max ${ms(Math.max(...runs))})`);
}

console.log('\n3. Cold start (a new process per spawn, bundle already built)');
if (process.env.BENCH_BASELINE_ROOT) await firstDecide('baseline', process.env.BENCH_BASELINE_ROOT);
await firstDecide('this kit', join(import.meta.dirname, '../..'));

console.log(`\n4. Over HTTP (npm run serve's server; throughput: ${DURATION_S} s closed loop, 8 connections, after a 1 s warm-up)`);
if (process.env.BENCH_BASELINE_ROOT) await httpRun('baseline', process.env.BENCH_BASELINE_ROOT);
await httpRun('this kit', join(import.meta.dirname, '../..'));
