// A synthetic k6 raw-sample output (`--out csv=…gz` with `--system-tags name,status,check,group`
// and K6_CSV_TIME_FORMAT=unix_micro, as load/k6-samples.ts has k6 write it) of the mixed scenario,
// for measuring the kit's analysis of long runs without running one. Row for row what k6 v2.2
// writes for load/scenarios/mixed.js (taken from a real run against the bundled server): per
// iteration `scenario_iterations` at its start and `data_sent`, `data_received`,
// `iteration_duration`, `iterations` at its end; per request the nine `http_req*` rows at the end
// of its response, one `checks` row per check (tagged with the request name),
// `validated_responses` and the adapter's `timeline_wN` trend; `vus` and `vus_max` every second;
// the setup's two data rows in group `::setup`. Rows come in the order of their timestamps, so a
// slow request's rows come after those of faster ones dispatched later, as in k6's output.
import { createWriteStream, renameSync } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { seededRandom } from '../definitions/common.js';
import { MIX_CYCLE } from '../definitions/mixed.js';

export const K6_CSV_HEADER = 'metric_name,timestamp,metric_value,check,group,name,status,extra_tags,metadata';

/** Median latency (ms) and checks per request name: a lognormal body with a heavy tail (below). */
const REQUESTS: Record<string, { medianMs: number; checks: readonly string[] }> = {
  decide: {
    medianMs: 8,
    checks: ['status', 'request-id', 'contract-body', 'answer-ids', 'input-tokens', 'option-ids', 'probability-range'],
  },
  upload_asset: { medianMs: 40, checks: ['status', 'request-id', 'contract-body'] },
  decide_on_asset: { medianMs: 15, checks: ['status', 'request-id', 'contract-body', 'answer-ids', 'option-ids'] },
  feedback: { medianMs: 3, checks: ['status', 'request-id', 'contract-body'] },
  models: { medianMs: 1.2, checks: ['status', 'request-id', 'contract-body'] },
  health: { medianMs: 0.6, checks: ['status', 'request-id'] },
};

/** The requests of one iteration of the mixed cycle, by its kind (definitions/mixed.js). */
const ITERATION_REQUESTS: Record<string, readonly string[]> = {
  decide: ['decide'],
  asset: ['upload_asset', 'decide_on_asset'],
  feedback: ['decide', 'feedback'],
  models: ['models'],
  health: ['health'],
};

/** Requests per iteration over one mix cycle (25 in 20 iterations). */
export const REQUESTS_PER_ITERATION = MIX_CYCLE.reduce((sum, kind) => sum + ITERATION_REQUESTS[kind]!.length, 0) / MIX_CYCLE.length;

/** Shares of the tail: 1 % of requests are slowed by a Pareto factor, a few fail or time out. */
const TAIL_SHARE = 0.01;
const TAIL_ALPHA = 1.3;
const SERVER_ERROR_SHARE = 0.001;
const TIMEOUT_SHARE = 0.000_05;
/** k6's client timeout in the kit's scripts (seed figures): a timed-out request lasts this long and has status 0. */
const TIMEOUT_MS = 180_000;
const LOG_SIGMA = 0.45;
/** Text handed to gzip at a time. */
const CHUNK_CHARS = 1 << 20;

interface InFlight {
  /** Absolute µs, fractional: when the response ended. */
  endUs: number;
  name: string;
  durationMs: number;
  status: number;
  /** Requests of the iteration still to send after this one. */
  next: readonly string[];
  iterationStartUs: number;
  window: number;
}

/** A binary min-heap on endUs: the requests in flight, the first to end on top. */
function inFlightQueue() {
  const items: InFlight[] = [];
  return {
    get size() {
      return items.length;
    },
    peek: () => items[0],
    push(item: InFlight) {
      items.push(item);
      for (let i = items.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (items[parent]!.endUs <= items[i]!.endUs) break;
        [items[parent], items[i]] = [items[i]!, items[parent]!];
        i = parent;
      }
    },
    pop(): InFlight {
      const top = items[0]!;
      const last = items.pop()!;
      if (items.length > 0) {
        items[0] = last;
        for (let i = 0; ; ) {
          const left = 2 * i + 1;
          const right = left + 1;
          let smallest = i;
          if (left < items.length && items[left]!.endUs < items[smallest]!.endUs) smallest = left;
          if (right < items.length && items[right]!.endUs < items[smallest]!.endUs) smallest = right;
          if (smallest === i) break;
          [items[smallest], items[i]] = [items[i]!, items[smallest]!];
          i = smallest;
        }
      }
      return top;
    },
  };
}

export interface SyntheticRun {
  requests: number;
  durationS: number;
  /** Seconds per timeline window (the adapter's timeline_wN metrics). */
  windowS: number;
  seed: number;
}

/**
 * Writes the gzip-compressed CSV of a mixed run of `requests` requests spread evenly over
 * `durationS` seconds (iterations at a constant arrival rate) to `path`, through `path.part` so
 * that an interrupted run leaves no truncated file under the final name.
 */
export async function writeSyntheticK6Csv(path: string, run: SyntheticRun): Promise<void> {
  const random = seededRandom(run.seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const latency = (name: string): { durationMs: number; status: number } => {
    const draw = random();
    if (draw < TIMEOUT_SHARE) return { durationMs: TIMEOUT_MS + random() * 5, status: 0 };
    let durationMs = REQUESTS[name]!.medianMs * Math.exp(LOG_SIGMA * normal());
    // A slower request would have timed out.
    if (draw < TIMEOUT_SHARE + TAIL_SHARE) durationMs = Math.min(TIMEOUT_MS - 1, durationMs * (1 - random()) ** (-1 / TAIL_ALPHA));
    const status = random() < SERVER_ERROR_SHARE ? 503 : name === 'upload_asset' ? 201 : 200;
    return { durationMs, status };
  };

  const gzip = createGzip();
  const file = createWriteStream(`${path}.part`);
  gzip.pipe(file);
  const written = once(file, 'finish');
  let text = `${K6_CSV_HEADER}\n`;
  const flush = async () => {
    const more = gzip.write(text);
    text = '';
    if (!more) await once(gzip, 'drain');
  };

  const startUs = 1_795_700_000_000_000;
  const iterations = Math.ceil(run.requests / REQUESTS_PER_ITERATION);
  const gapUs = (run.durationS * 1e6) / iterations;
  text += `data_sent,${startUs},0.000000,,::setup,,,,\ndata_received,${startUs},0.000000,,::setup,,,,\n`;
  let nextSecondUs = startUs + 1e6;
  const vusRows = (untilUs: number, inFlight: number) => {
    for (; nextSecondUs <= untilUs; nextSecondUs += 1e6) {
      const vus = Math.max(1, inFlight).toFixed(6);
      text += `vus,${nextSecondUs},${vus},,,,,,\nvus_max,${nextSecondUs},${vus},,,,,,\n`;
    }
  };

  const queue = inFlightQueue();
  const send = (name: string, next: readonly string[], sentUs: number, iterationStartUs: number) => {
    const { durationMs, status } = latency(name);
    const window = Math.floor((iterationStartUs - startUs) / 1e6 / run.windowS);
    queue.push({ endUs: sentUs + durationMs * 1000, name, durationMs, status, next, iterationStartUs, window });
  };
  const answered = (request: InFlight) => {
    const at = Math.floor(request.endUs);
    const { name, status } = request;
    const tags = `,,,${name},${status},,\n`;
    const ms = (value: number) => value.toFixed(6);
    const sending = Math.min(0.05, request.durationMs / 10);
    const receiving = Math.min(0.06, request.durationMs / 10);
    text +=
      `http_reqs,${at},1.000000${tags}` +
      `http_req_duration,${at},${ms(request.durationMs)}${tags}` +
      `http_req_blocked,${at},0.002114${tags}` +
      `http_req_connecting,${at},0.000000${tags}` +
      `http_req_tls_handshaking,${at},0.000000${tags}` +
      `http_req_sending,${at},${ms(sending)}${tags}` +
      `http_req_waiting,${at},${ms(request.durationMs - sending - receiving)}${tags}` +
      `http_req_receiving,${at},${ms(receiving)}${tags}` +
      `http_req_failed,${at},${status >= 200 && status < 400 ? '0.000000' : '1.000000'}${tags}`;
    const ok = status >= 200 && status < 400;
    // A failed request fails its status check, and its body is not judged further.
    const checks = ok ? REQUESTS[name]!.checks : REQUESTS[name]!.checks.slice(0, 2);
    for (const check of checks) text += `checks,${at + 340},${ok || check !== 'status' ? '1.000000' : '0.000000'},${name} ${check},,${name},,,\n`;
    if (ok) text += `validated_responses,${at + 370},1.000000,,,,,,\n`;
    text += `timeline_w${request.window},${at + 400},${ms(request.durationMs)},,,,,,\n`;
    // The iteration's next request goes out even after a failure (mixed would stop): the file holds exactly `requests`.
    const [following, ...rest] = request.next;
    if (following !== undefined) send(following, rest, request.endUs + 30, request.iterationStartUs);
    else {
      const end = at + 410;
      text +=
        `data_sent,${end},${(600 + 400 * random()).toFixed(6)},,,,,,\n` +
        `data_received,${end},${(500 + 600 * random()).toFixed(6)},,,,,,\n` +
        `iteration_duration,${end},${ms((end - request.iterationStartUs) / 1000)},,,,,,\n` +
        `iterations,${end},1.000000,,,,,,\n`;
    }
  };

  let scheduled = 0;
  for (let iteration = 0; scheduled < run.requests || queue.size > 0; ) {
    const dispatchUs = startUs + 1000 + iteration * gapUs;
    const first = queue.peek();
    if (first && (scheduled >= run.requests || first.endUs <= dispatchUs)) {
      vusRows(first.endUs, queue.size);
      answered(queue.pop());
    } else {
      vusRows(dispatchUs, queue.size);
      const kind = MIX_CYCLE[iteration % MIX_CYCLE.length]!;
      const [name, ...next] = ITERATION_REQUESTS[kind]!.slice(0, run.requests - scheduled);
      scheduled += 1 + next.length;
      text += `scenario_iterations,${Math.floor(dispatchUs)},1.000000,,,,,,\n`;
      send(name!, next, dispatchUs + 20, dispatchUs);
      iteration++;
    }
    if (text.length >= CHUNK_CHARS) await flush();
  }
  await flush();
  gzip.end();
  await written;
  renameSync(`${path}.part`, path);
}
