// Replay against real servers: a recorded run of the reference server replays unchanged
// against a fresh reference server, and every change a broken server makes is reported.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { COMPRESSED_BODY_BYTES } from '../../harness/http.ts';
import { isOperation, rewriteJson, startMutatingProxy, type Mutation } from '../../harness/testing/mutating-proxy.ts';
import { readRecordedExchanges } from '../recorded.ts';
import { verdictLine } from '../format.ts';
import { replay } from '../replay.ts';
import { runKitCommand } from '../../harness/testing/kit-command.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Decisions, errors, a text upload read back and deleted (ids the new server makes differently), binary uploads, feedback.
// ASSET-SHA256-WHOLE-FILE uploads 2.1 MB, a body the report keeps compressed.
const RECORDED_CHECKS = [
  'AUTH-MISSING-KEY',
  'AUTH-VALID-KEY',
  'DECIDE-SUCCESS-BODY-VALID',
  'DECIDE-UNKNOWN-FIELD-TOP',
  'ASSET-UPLOAD-TEXT-PLAIN',
  'ASSET-UPLOAD-IMAGE-PNG',
  'ASSET-GET-SAME',
  'ASSET-DELETE-RESULT',
  'ASSET-SHA256-WHOLE-FILE',
  'FEEDBACK-REFERENCE-SHAPE',
  'MODELS-SHAPE',
];

let resultsFile: string;
let target: EmbeddedTarget;

async function recordRun(dir: string): Promise<number | null> {
  return (await runKitCommand(['run', '--quiet', '--report-dir', dir, '--only', RECORDED_CHECKS.join(',')])).code;
}

/** `decision-conformance replay ARGS` as users run it, with no key in its environment but those given here. */
const replayCli = (args: string[], keys: Record<string, string> = {}) => runKitCommand(['replay', ...args], keys);

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'decision-replay-'));
  expect(await recordRun(dir)).toBe(0);
  resultsFile = join(dir, 'results.json');
  target = await startEmbeddedTarget();
});
afterAll(async () => target?.stop());

// Each replay meets a fresh server, as a new version would: a server the same requests were
// replayed to already refuses their feedback as given (409), and only key B (not the project
// that sent it) could give it again.
const replayThrough = async (mutation?: Mutation) => {
  const fresh = await startEmbeddedTarget();
  const proxy = mutation ? await startMutatingProxy(fresh.baseUrl, mutation) : undefined;
  try {
    return await replay(readRecordedExchanges(resultsFile), {
      baseUrl: proxy?.baseUrl ?? fresh.baseUrl,
      keyA: fresh.keyA,
      keyB: fresh.keyB,
      timeoutMs: 10_000,
    });
  } finally {
    await proxy?.close();
    await fresh.stop();
  }
};

test('the recorded file holds no key, and a fresh reference server keeps every outcome', async () => {
  expect(readFileSync(resultsFile, 'utf8')).toContain('Bearer svc_live_***');
  const report = await replayThrough();
  expect(
    report.counts.changed,
    JSON.stringify(
      report.verdicts.filter((v) => v.kind === 'changed'),
      null,
      1,
    ),
  ).toBe(0);
  expect(report.counts.replayed).toBeGreaterThan(10);
  // Ids the old server made were paired with the new server's: the text asset was read back under its new id.
  expect(report.verdicts.some((v) => v.kind === 'same' && /\/v1\/assets\/asset_/.test(v.exchange.request.url) && v.exchange.request.method === 'GET')).toBe(
    true,
  );
  // Uploads are sent again with the exact bytes of the body files the report keeps.
  expect(
    report.verdicts.some(
      (v) => v.kind === 'same' && v.exchange.bodyBytes && v.exchange.request.method === 'POST' && v.exchange.request.url.endsWith('/v1/assets'),
    ),
  ).toBe(true);
  // …the compressed ones included, sent as their bytes before compression.
  expect(
    report.verdicts.some(
      (v) => v.kind === 'same' && v.exchange.bodyBytes && v.exchange.bodyBytes.length >= COMPRESSED_BODY_BYTES && v.exchange.request.url.endsWith('/v1/assets'),
    ),
  ).toBe(true);
  expect(report.skipReasons['the request body was recorded as its size only (<N bytes>)'] ?? 0).toBe(0);
  // Every replayed response is judged by the response rules too: the reference server breaks none.
  expect(report.rules.filter((rule) => rule.status === 'fail').map((rule) => rule.message)).toEqual([]);
  expect(report.rules.find((rule) => rule.id === 'request-id')?.rule?.judged).toBe(report.counts.replayed);
});

test('a server that keeps every outcome but breaks a response rule is caught by the rule, with its sender and curl line', async () => {
  const report = await replayThrough({
    response: (received, sent) =>
      isOperation(sent, 'POST', '/v1/decide') && received.status === 200
        ? rewriteJson(received, (body) => {
            for (const answer of Object.values(body.answers ?? {}) as any[]) {
              const lowest = Object.entries(answer.probabilities ?? {}).sort(([, x], [, y]) => (x as number) - (y as number))[0];
              if (lowest && Object.keys(answer.probabilities).length > 2) answer.probabilities[lowest[0]] = -0.01;
            }
            return body;
          })
        : received,
  });
  // Every decide keeps its outcome (a second replay against this server may only see its feedback refused as already given).
  const changedDecides = report.verdicts.filter((v) => v.kind === 'changed' && v.exchange.request.url.endsWith('/v1/decide'));
  expect(changedDecides).toEqual([]);
  expect(report.verdicts.filter((v) => v.kind === 'same' && v.exchange.request.url.endsWith('/v1/decide')).length).toBeGreaterThan(0);
  const broken = report.rules.filter((rule) => rule.status === 'fail');
  // ChoiceAnswer's schema bounds each probability too.
  expect(broken.map((rule) => rule.id)).toEqual(['choice-answer-shape', 'probability-range']);
  expect(broken[1]!.message).toMatch(/sent by [A-Z-]+ #\d+/);
  expect(broken[1]!.exchanges[0]!.curl).toMatch(/^curl .*\/v1\/decide/);
  expect(verdictLine(report)).toContain('2 MUST response rules broken');
});

test('a server that answers decisions with 201 instead of 200 is reported, exchange by exchange', async () => {
  const report = await replayThrough({
    response: (received, sent) => (isOperation(sent, 'POST', '/v1/decide') && received.status === 200 ? { ...received, status: 201 } : received),
  });
  const changed = report.verdicts.filter((v) => v.kind === 'changed');
  expect(changed.length).toBeGreaterThan(0);
  for (const verdict of changed) {
    expect(verdict.exchange.request.url).toMatch(/\/v1\/decide$/);
    expect(verdict.kind === 'changed' && verdict.changes).toContain('status 200 became 201');
  }
});

test('a server that drops a response field the old run relied on is reported', async () => {
  const report = await replayThrough({
    response: (received, sent) =>
      isOperation(sent, 'POST', '/v1/decide') && received.status === 200 ? rewriteJson(received, ({ usage: _usage, ...rest }) => rest) : received,
  });
  const changes = report.verdicts.flatMap((v) => (v.kind === 'changed' ? v.changes : []));
  expect(changes).toContain('field "usage" is gone');
});

test('a server that changes an error code is reported', async () => {
  const report = await replayThrough({
    response: (received) => (received.status === 401 ? rewriteJson(received, (body) => ({ error: { ...body.error, code: 'FORBIDDEN' } })) : received),
  });
  const changes = report.verdicts.flatMap((v) => (v.kind === 'changed' ? v.changes : []));
  expect(changes).toContain('error code UNAUTHORIZED became FORBIDDEN');
});

test('the command exits 1 on a change and 2 on unreadable results, and never prints a key', async () => {
  const proxy = await startMutatingProxy(target.baseUrl, {
    response: (received, sent) => (isOperation(sent, 'GET', '/v1/models') ? { ...received, status: 500 } : received),
  });
  try {
    const changed = await replayCli(['--results', resultsFile, '--base-url', proxy.baseUrl], {
      DECISION_API_KEY: target.keyA,
      DECISION_API_KEY_B: target.keyB,
    });
    expect(changed.code, changed.err).toBe(1);
    expect(changed.out).toMatch(/CHANGED\s+#\d+ MODELS-SHAPE: GET \/v1\/models: status 200 became 500/);
    expect(changed.out + changed.err).not.toContain(target.keyA);
    expect((await replayCli(['--results', join(root, 'package.json')])).code).toBe(2);
    expect((await replayCli(['--results', resultsFile, '--base-url', proxy.baseUrl])).code).toBe(2);
  } finally {
    await proxy.close();
  }
});

test('key B is tried after key A only for files of earlier versions, which do not name the project that sent a request', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'decision-replay-projects-'));
  expect((await runKitCommand(['run', '--quiet', '--report-dir', dir, '--only', 'ISOLATION-GET-FORBIDDEN'])).code).toBe(0);
  const file = join(dir, 'results.json');
  // The same file without the field this version records: what an earlier version wrote.
  const results = JSON.parse(readFileSync(file, 'utf8'));
  for (const check of results.checks) for (const evidence of check.evidence) delete evidence.credential;
  const legacyFile = join(dir, 'legacy-results.json');
  writeFileSync(legacyFile, JSON.stringify(results));
  const fresh = await startEmbeddedTarget();
  try {
    const replayTo = (from: string) => replay(readRecordedExchanges(from), { baseUrl: fresh.baseUrl, keyA: fresh.keyA, keyB: fresh.keyB, timeoutMs: 10_000 });
    const named = await replayTo(file);
    expect(named.counts.changed).toBe(0);
    // Project B's requests went with key B at once: the file says so.
    expect(named.verdicts.some((v) => v.kind === 'same' && v.exchange.credential?.project === 'b' && !v.withKeyB)).toBe(true);
    expect(named.verdicts.some((v) => v.kind === 'same' && v.withKeyB)).toBe(false);
    // The earlier version's file: key A first, which changes the outcome, then key B.
    const legacy = await replayTo(legacyFile);
    expect(legacy.counts.changed).toBe(0);
    expect(legacy.verdicts.some((v) => v.kind === 'same' && v.withKeyB)).toBe(true);
  } finally {
    await fresh.stop();
  }
});
