// `npx tsx load/bench/hostile-media-memory.ts [--root <kit checkout>] [--only <case name part>]`
// (`npm run bench:hostile-media`): the memory of the bundled reference server under hostile media:
// decompression bombs small enough to upload (reference-impl/test/support/hostile-media.ts makes
// them), each kind alone and two at once; files just within the reference server's reading
// limits (reference-impl/README.md), which it reads, alone and two at once; and a control row of
// ordinary media.
//
// Each case gets a fresh server, started as `npm run serve` starts it (load/server-process.ts),
// whose resident set (VmRSS in /proc/<pid>/status) is sampled every 50 ms: idle is the median of
// the second before the case; then every file is uploaded and decided at once, each decide
// referencing one file; the case is abandoned after 75 s. Peak is the larger of the samples and
// the kernel's high-water mark (VmHWM, reset before the case); settled is read 10 s after the
// last answer. Both are printed above idle. The ceiling the reference server states
// (reference-impl/README.md): peak at most 512 MiB above idle, settled within 64 MiB.
//
// `--root` runs another checkout's server (e.g. `git worktree add /tmp/before HEAD` with its
// node_modules linked), with the same files and requests, for a before/after comparison.
// Linux only (/proc). Asserts nothing: prints a table.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { docxWithPages, wavClip } from '../../harness/samples/media.ts';
import { scannedPdf } from '../../harness/samples/scanned-pdf.ts';
import { textPicture } from '../../harness/samples/text-picture.ts';
import { docxBomb, flacBomb, jpegBomb, pdfBomb, pngBomb, pngNoise, webpBomb } from '../../reference-impl/test/support/hostile-media.ts';
import { apiKeyPrefix } from '../../spec/index.ts';
import { REFERENCE_SERVER, startKeyedServer, type KeyedServerProcess } from '../server-process.ts';

const { values: args } = parseArgs({ options: { root: { type: 'string' }, only: { type: 'string' } } });
/** The server's own time limit per asset is 60 s: a case gets that and a margin, so its answer shows. */
const CASE_LIMIT_MS = 75_000;
const SETTLE_MS = 10_000;
const SAMPLE_MS = 50;
const MiB = 1024 * 1024;
const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

interface Upload {
  type: string;
  part: 'image' | 'document' | 'audio';
  bytes: Uint8Array;
}

interface Case {
  name: string;
  /** Each entry is decided on its own, all at once. */
  files: () => Upload[];
}

const png = (variant: number): Upload => ({ type: 'image/png', part: 'image', bytes: pngBomb(20_000, 20_000 - variant) });
const jpeg = (variant: number): Upload => ({ type: 'image/jpeg', part: 'image', bytes: jpegBomb(20_000, 20_000 - variant * 8) });
const webp = (variant: number): Upload => ({ type: 'image/webp', part: 'image', bytes: webpBomb(16_384, 16_384 - variant) });
const pdf = (variant: number): Upload => ({
  type: 'application/pdf',
  part: 'document',
  bytes: pdfBomb({ pages: 20, width: 10_000, height: 10_000 - variant }),
});
const docx = (variant: number): Upload => ({ type: docxType, part: 'document', bytes: docxBomb({ letters: 60 * MiB - variant }) });
const flac = (variant: number): Upload => ({ type: 'audio/flac', part: 'audio', bytes: flacBomb({ seconds: 30 - variant, sampleRate: 655_350, channels: 8 }) });

const bombs: { name: string; make: (variant: number) => Upload }[] = [
  { name: 'PNG 20,000² grey (389 kB)', make: png },
  { name: 'JPEG 20,000² grey (1.6 MB)', make: jpeg },
  { name: 'WebP lossless 16,384² (36 B)', make: webp },
  { name: 'PDF 20 pages × 10,000² image (2 MB)', make: pdf },
  { name: 'DOCX 60 MiB document.xml (61 kB)', make: docx },
  { name: 'FLAC 30 s × 655 kHz × 8 ch (9 kB)', make: flac },
];

// Within every limit of the reference server (20,000,000 pixels a picture, 12,000,000 a PDF image,
// 16 MiB a DOCX part and 1,000,000 characters of text, 12,000,000 decoded samples): read, not refused.
const withinLimits: { name: string; make: (variant: number) => Upload }[] = [
  { name: 'within limits: PNG 4,472² 1-bit noise (2.5 MB)', make: () => ({ type: 'image/png', part: 'image', bytes: pngNoise(4_472, 4_472) }) },
  { name: 'within limits: PNG 4,472² grey (20 Mpx)', make: (v) => ({ type: 'image/png', part: 'image', bytes: pngBomb(4_472, 4_472 - v) }) },
  {
    name: 'within limits: PDF 20 pages × 3,464² image (12 Mpx)',
    make: (v) => ({ type: 'application/pdf', part: 'document', bytes: pdfBomb({ pages: 20, width: 3_464, height: 3_464 - v }) }),
  },
  {
    name: 'within limits: DOCX 15 MiB document.xml, 990,000 letters',
    make: (v) => ({ type: docxType, part: 'document', bytes: docxBomb({ letters: 990_000 - v, fillerBytes: 14 * MiB }) }),
  },
  {
    name: 'within limits: FLAC 30 s × 192 kHz × 2 ch',
    make: (v) => ({ type: 'audio/flac', part: 'audio', bytes: flacBomb({ seconds: 30 - v, sampleRate: 192_000, channels: 2 }) }),
  },
];

const lines = ['Refund for a double charge on order 4471.', 'The parcel left the depot on 12 March.'];
const cases: Case[] = [
  {
    name: 'control: screenshot, scan, DOCX, 5 s WAV',
    files: (): Upload[] => [
      { type: 'image/png', part: 'image', bytes: textPicture(lines) },
      { type: 'application/pdf', part: 'document', bytes: scannedPdf([lines]) },
      { type: docxType, part: 'document', bytes: docxWithPages(2) },
      { type: 'audio/wav', part: 'audio', bytes: wavClip([{ seconds: 5, amplitude: 0.2 }]) },
    ],
  },
  ...bombs.map((bomb) => ({ name: bomb.name, files: () => [bomb.make(0)] })),
  ...bombs.map((bomb) => ({ name: `2 × ${bomb.name.replace(/ \(.*\)$/, '')}`, files: () => [bomb.make(0), bomb.make(1)] })),
  ...withinLimits.map((file) => ({ name: file.name, files: () => [file.make(0)] })),
  ...withinLimits.map((file) => ({ name: `2 × ${file.name.replace(/ \(.*\)$/, '')}`, files: () => [file.make(0), file.make(1)] })),
].filter((entry) => args.only === undefined || entry.name.toLowerCase().includes(args.only.toLowerCase()));

const questions = { topic: { type: 'choice', options: { billing: 'A payment, refund or invoice', shipping: 'A parcel or delivery' } } };

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined; // the process has gone
  }
}

/** The server's pid: the process whose command line carries the case's own key. */
function pidWithKey(key: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(key)) return Number(entry);
    } catch {
      // gone meanwhile, or not ours
    }
  }
  throw new Error('The server process was not found under /proc');
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Outcome {
  answers: string[];
  idle: number;
  peak: number;
  settled: number | undefined;
  seconds: number;
}

async function send(server: KeyedServerProcess, path: string, body: Uint8Array | string, type: string, signal: AbortSignal) {
  const response = await request(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': type },
    body,
    signal,
    headersTimeout: CASE_LIMIT_MS,
    bodyTimeout: CASE_LIMIT_MS,
  });
  const text = await response.body.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, json };
}

/** Upload, then decide: "201 → 200", "400 DECODE_FAILED", "201 → 500 VISION_FAILED", "aborted", … */
async function uploadAndDecide(server: KeyedServerProcess, file: Upload, signal: AbortSignal): Promise<string> {
  try {
    const uploaded = await send(server, '/v1/assets', file.bytes, file.type, signal);
    if (uploaded.status !== 201) return `${uploaded.status} ${uploaded.json?.error?.code ?? ''}`.trim();
    const body = JSON.stringify({
      context: [
        { type: 'text', text: 'The customer attached this:' },
        { type: file.part, asset_id: uploaded.json.id },
      ],
      questions,
    });
    const decided = await send(server, '/v1/decide', body, 'application/json', signal);
    return `201 → ${decided.status}${decided.status === 200 ? '' : ` ${decided.json?.error?.code ?? ''}`}`;
  } catch (error) {
    return signal.aborted ? `aborted at ${CASE_LIMIT_MS / 1000} s` : `failed (${(error as Error).message})`;
  }
}

async function runCase(entry: Case, command: readonly [string, ...string[]]): Promise<Outcome> {
  const files = entry.files();
  const key = `${apiKeyPrefix}bench_memory_${randomBytes(8).toString('hex')}`;
  const server = await startKeyedServer({ command, key });
  try {
    const pid = pidWithKey(key);
    await sleep(1_000);
    const idleSamples: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      idleSamples.push(statusKb(pid, 'VmRSS') ?? 0);
      await sleep(SAMPLE_MS);
    }
    const idle = median(idleSamples);
    // Resets VmHWM to the current RSS (Linux: "5" to clear_refs), so the high-water mark is the case's.
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      // not allowed here: the 50 ms samples alone
    }
    let peak = idle;
    const sampler = setInterval(() => {
      const rss = statusKb(pid, 'VmRSS');
      if (rss !== undefined && rss > peak) peak = rss;
    }, SAMPLE_MS);
    const started = performance.now();
    const signal = AbortSignal.timeout(CASE_LIMIT_MS);
    const answers = await Promise.all(files.map((file) => uploadAndDecide(server, file, signal)));
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, statusKb(pid, 'VmHWM') ?? 0);
    await sleep(SETTLE_MS);
    clearInterval(sampler);
    peak = Math.max(peak, statusKb(pid, 'VmHWM') ?? 0);
    const settled = statusKb(pid, 'VmRSS');
    return { answers, idle, peak, settled, seconds };
  } finally {
    await server.stop();
  }
}

const root = args.root ? resolve(args.root) : undefined;
const command: readonly [string, ...string[]] = root ? [process.execPath, join(root, 'reference-impl', 'start.mjs')] : REFERENCE_SERVER;
const mib = (bytes: number | undefined) => (bytes === undefined ? 'gone' : `${(bytes / MiB).toFixed(0)} MiB`);

console.log(`hostile media and the reference server's memory (${root ?? 'this checkout'}); ceiling: peak ≤ idle + 512 MiB, settled ≤ idle + 64 MiB`);
// A first start bundles the sources and writes V8's code cache: done here, so no case's idle includes it.
await (await startKeyedServer({ command })).stop();
console.log(`| case | answers (upload → decide) | idle RSS | peak above idle | settled above idle (10 s) | time |`);
console.log('| --- | --- | ---: | ---: | ---: | ---: |');
for (const entry of cases) {
  try {
    const outcome = await runCase(entry, command);
    const settled = outcome.settled === undefined ? 'server gone' : mib(outcome.settled - outcome.idle);
    console.log(
      `| ${entry.name} | ${outcome.answers.join('; ')} | ${mib(outcome.idle)} | ${mib(outcome.peak - outcome.idle)} | ${settled} | ${outcome.seconds.toFixed(1)} s |`,
    );
  } catch (error) {
    console.log(`| ${entry.name} | case failed: ${(error as Error).message.split('\n')[0]} | | | | |`);
  }
}
