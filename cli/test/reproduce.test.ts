// Reproduce lines run as printed: a run's curl lines, from its report folder with the keys in the
// environment, get the recorded status back from the server, uploads (bodies/<sha256>.bin, and
// .bin.gz read through gzip for bodies from 1 MiB),
// large JSON bodies, project B's and the short-lifetime project's requests included. Each line
// runs twice: with curl when the machine has it, and always through a faithful reading of the
// line (shell words, $VARIABLES, @file bodies) sent with undici, so that the test means the same
// on a machine without curl.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COMPRESSED_BODY_BYTES, KEY_VARIABLES } from '../../harness/http.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { runCommand } from '../run.ts';

const run = promisify(execFile);

interface RecordedExchange {
  request: { method: string; url: string; body?: string };
  response?: { status: number };
  curl: string;
}
interface Results {
  checks: Array<{ id: string; status: string; evidence: RecordedExchange[] }>;
}

const SAMPLE_CHECKS = [
  'AUTH-INVALID-KEY',
  'ASSET-UPLOAD-IMAGE-PNG',
  'ASSET-UPLOAD-AUDIO-WAV',
  'LIMIT-BODY-256KIB',
  'ISOLATION-GET-FORBIDDEN',
  'ISOLATION-REFERENCE-FORBIDDEN',
  'ASSET-EXPIRED-REFERENCE',
  // A body of 2.1 MB: kept compressed, read through gzip.
  'ASSET-SHA256-WHOLE-FILE',
  // Headers sent with an empty value, which curl sends only when written "Name;".
  'ASSET-EMPTY-CONTENT-TYPE',
  'AUTH-EMPTY-VALUE',
];

/** Splits a POSIX shell command line into words: '…' literal, "…" with $NAME expanded, bare words with $NAME expanded. */
function shellWords(line: string, env: Record<string, string>): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const expand = (text: string) => text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => env[name] ?? '');
  for (let i = 0; i < line.length; ) {
    const char = line[i]!;
    if (char === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
      i += 1;
    } else if (char === '#' && word === undefined) {
      break;
    } else if (char === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (char === '"') {
      const end = line.indexOf('"', i + 1);
      word = (word ?? '') + expand(line.slice(i + 1, end));
      i = end + 1;
    } else if (char === '\\') {
      word = (word ?? '') + line[i + 1];
      i += 2;
    } else {
      const end = line.slice(i).search(/[ '"\\]/);
      const bare = end < 0 ? line.slice(i) : line.slice(i, i + end);
      word = (word ?? '') + expand(bare);
      i += bare.length;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Sends the request a curl line describes, reading @file bodies from `cwd` (@- from the gzip it is piped from); returns the status. */
async function replayWithoutCurl(line: string, env: Record<string, string>, cwd: string): Promise<number> {
  // A large body is kept compressed: `gzip -dc 'bodies/<sha256>.bin.gz' | curl … --data-binary @-`.
  const piped = /^gzip -dc ('[^']*') \| (curl .*)$/s.exec(line);
  const stdin = piped ? gunzipSync(readFileSync(join(cwd, shellWords(piped[1]!, env)[0]!))) : undefined;
  const words = shellWords(piped ? piped[2]! : line, env);
  expect(words.slice(0, 3)).toEqual(['curl', '-sS', '-i']);
  let method = 'GET';
  let url = '';
  const headers: Record<string, string> = {};
  let body: Buffer | undefined;
  for (let i = 3; i < words.length; i += 1) {
    const word = words[i]!;
    if (word === '-X') method = words[++i]!;
    else if (word === '-H') {
      const header = words[++i]!;
      const colon = header.indexOf(':');
      // "Name;" is curl's way to send a header with an empty value.
      if (colon < 0 && header.endsWith(';')) headers[header.slice(0, -1).trim().toLowerCase()] = '';
      else headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (word === '--data-binary') {
      const data = words[++i]!;
      if (data === '@-') body = stdin ?? expect.fail('--data-binary @- with nothing piped in');
      else body = data.startsWith('@') ? readFileSync(join(cwd, data.slice(1))) : Buffer.from(data, 'utf8');
    } else if (!word.startsWith('-')) url = word;
    else throw new Error(`a curl option the kit does not print: ${word}`);
  }
  // curl sends a form content type with --data-binary unless one is given; the kit always gives one.
  const response = await request(url, { method: method as 'GET', headers, ...(body ? { body } : {}) });
  await response.body.dump();
  return response.statusCode;
}

/** Runs the line with curl in a shell, as a person would paste it; returns the final status. */
async function replayWithCurl(line: string, env: Record<string, string>, cwd: string): Promise<number> {
  const { stdout } = await run('bash', ['-c', line], { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  const statuses = [...stdout.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((match) => Number(match[1])).filter((status) => status !== 100);
  return statuses[0]!;
}

const hasCurl = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('reproduce lines of a report', () => {
  let target: EmbeddedTarget;
  let reportDir: string;
  let results: Results;
  let env: Record<string, string>;

  beforeAll(async () => {
    target = await startEmbeddedTarget();
    reportDir = mkdtempSync(join(tmpdir(), 'decision-reproduce-'));
    const printed: string[] = [];
    const outcome = await runCommand(
      {
        baseUrl: target.baseUrl,
        keyA: target.keyA,
        keyB: target.keyB,
        expiry: { key: target.keyShortTtl, ttlMs: target.shortTtlMs },
        suites: ['conformance'],
        referenceProfile: 'reference',
        referenceChoices: {},
        only: SAMPLE_CHECKS,
        skip: [],
        capabilities: ['multimodal', 'assets', 'noul', 'score', 'multi'],
        reportDir,
        timeoutMs: 30_000,
        warmupTimeoutMs: 60_000,
        concurrency: 8,
        workers: 8,
        seed: 1,
        quiet: true,
        verbose: false,
      },
      { tty: false, color: false, write: (text) => printed.push(text) },
    );
    expect(outcome.exitCode, printed.join('')).toBe(0);
    results = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as Results;
    env = { [KEY_VARIABLES.a]: target.keyA, [KEY_VARIABLES.b]: target.keyB, [KEY_VARIABLES.expiry]: target.keyShortTtl };
  });

  afterAll(async () => {
    await target?.stop();
    if (reportDir) rmSync(reportDir, { recursive: true, force: true });
  });

  /**
   * The exchanges a replay must answer as recorded: every one, except those about an asset the
   * run deleted (a replay cannot delete it again) and feedback that was accepted (the same
   * feedback sent twice is a conflict: a replay cannot submit it again).
   */
  function replayable(): RecordedExchange[] {
    const exchanges = results.checks.flatMap((check) => check.evidence).filter((exchange) => exchange.response);
    const deleted = exchanges
      .filter((exchange) => exchange.request.method === 'DELETE' && exchange.response!.status < 300)
      .map((exchange) => exchange.request.url.split('/').pop()!);
    const acceptedFeedback = (exchange: RecordedExchange) => exchange.request.url.endsWith('/v1/feedback') && exchange.response!.status < 300;
    return exchanges.filter(
      (exchange) => !acceptedFeedback(exchange) && !deleted.some((id) => exchange.request.url.includes(id) || exchange.request.body?.includes(id)),
    );
  }

  test('the sample holds uploads with body files, a large JSON body, made-up keys, and requests of project B and of the short-lifetime project', () => {
    const lines = replayable().map((exchange) => exchange.curl);
    expect(lines.filter((line) => /-X POST '[^']*\/v1\/assets' .*--data-binary '@bodies\/[0-9a-f]{64}\.bin'$/.test(line)).length).toBeGreaterThanOrEqual(3);
    expect(lines.some((line) => line.includes('/v1/decide') && line.includes("--data-binary '@bodies/"))).toBe(true);
    expect(lines.some((line) => line.includes('Bearer $DECISION_API_KEY_B"'))).toBe(true);
    expect(lines.some((line) => line.includes('Bearer $DECISION_EXPIRY_API_KEY"'))).toBe(true);
    expect(lines.some((line) => /'authorization: Bearer svc_live_conformance_unknown_[0-9a-f]{16}'/.test(line))).toBe(true);
    expect(lines.some((line) => line.includes("-H 'content-type;'") && line.includes('/v1/assets'))).toBe(true);
    expect(lines.some((line) => line.includes("-H 'authorization;'"))).toBe(true);
    for (const line of lines) {
      for (const file of line.match(/bodies\/[0-9a-f]{64}\.bin(\.gz)?/g) ?? []) expect(existsSync(join(reportDir, file)), file).toBe(true);
    }
    // The large body's line pipes its compressed file into curl, and the file is a small share of the body.
    const compressed = lines.filter((line) => /^gzip -dc 'bodies\/[0-9a-f]{64}\.bin\.gz' \| curl .* --data-binary @-$/.test(line));
    expect(compressed.length).toBeGreaterThan(0);
    for (const line of compressed) {
      const file = /'(bodies\/[^']+)'/.exec(line)![1]!;
      const bytes = gunzipSync(readFileSync(join(reportDir, file)));
      expect(bytes.length).toBeGreaterThanOrEqual(COMPRESSED_BODY_BYTES);
      expect(file).toContain(createHash('sha256').update(bytes).digest('hex'));
      expect(statSync(join(reportDir, file)).size).toBeLessThan(bytes.length / 10);
    }
    // Bodies below the threshold stay plain files, to be read as they are.
    for (const line of lines.filter((candidate) => candidate.includes("--data-binary '@bodies/"))) {
      expect(statSync(join(reportDir, /@(bodies\/[^']+)'/.exec(line)![1]!)).size).toBeLessThan(COMPRESSED_BODY_BYTES);
    }
  });

  test('every line, run from the report folder with the keys in the environment, gets the recorded status', async () => {
    const sample = replayable();
    expect(sample.length).toBeGreaterThan(10);
    for (const exchange of sample) {
      const recorded = exchange.response!.status;
      expect(await replayWithoutCurl(exchange.curl, env, reportDir), exchange.curl.slice(0, 200)).toBe(recorded);
      if (hasCurl) expect(await replayWithCurl(exchange.curl, env, reportDir), exchange.curl.slice(0, 200)).toBe(recorded);
    }
  });

  test("a line read with the wrong project's key gets another status: the variables matter", async () => {
    const ofB = replayable().find((exchange) => exchange.curl.includes('$DECISION_API_KEY_B') && exchange.response!.status === 403)!;
    expect(ofB).toBeDefined();
    const withAsB = { ...env, [KEY_VARIABLES.b]: target.keyA };
    expect(await replayWithoutCurl(ofB.curl, withAsB, reportDir)).not.toBe(403);
  });
});
