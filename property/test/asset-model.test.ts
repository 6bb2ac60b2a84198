// The proof of PROP-ASSET-LIFECYCLE: it passes against the reference server, and behind a
// mutating proxy that plants one lifecycle bug it fails and shrinks the command sequence to the
// few commands that show the bug. Same seed, same shrunk sequence.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { ALL_CAPABILITIES, type Capability, type CheckResult } from '../../harness/check.ts';
import { runCheck } from '../../harness/runner.ts';
import {
  isOperation,
  rewriteJson,
  rewriteJsonRequest,
  startMutatingProxy,
  type Mutation,
  type ProxiedRequest,
  type ProxiedResponse,
} from '../../harness/testing/mutating-proxy.ts';
import { assetModelChecks, DEFAULT_SEQUENCES, MAX_COMMANDS } from '../asset-model.ts';

const check = assetModelChecks.find((c) => c.id === 'PROP-ASSET-LIFECYCLE')!;

interface RunOptions {
  /** Give the check the short-lived project (default: no, which leaves expiry out and keeps a run fast). */
  expiry?: boolean;
  secondKey?: boolean;
  capabilities?: Capability[];
  seed?: number;
  numRuns?: number;
}

async function runLifecycle(target: EmbeddedTarget, baseUrl: string, options: RunOptions = {}): Promise<CheckResult> {
  return runCheck(check, {
    target: {
      baseUrl,
      capabilities: new Set(options.capabilities ?? ALL_CAPABILITIES),
      hasSecondKey: options.secondKey ?? true,
      ...(options.expiry ? { shortTtl: { key: target.keyShortTtl, ttlMs: target.shortTtlMs } } : {}),
    },
    keyA: target.keyA,
    ...((options.secondKey ?? true) ? { keyB: target.keyB } : {}),
    timeoutMs: 10_000,
    checkTimeoutMs: 180_000,
    seed: options.seed ?? 1,
    ...(options.numRuns !== undefined ? { numRuns: options.numRuns } : {}),
  });
}

const SEQUENCE_NOTE = /^Shortest failing sequence \(\d+ commands, shrunk \d+ times\): (.*)$/;

/** The shrunk command list the check reported, one label per command. */
function shrunkSequence(result: CheckResult): string[] {
  const note = result.notes.map((line) => SEQUENCE_NOTE.exec(line)).find(Boolean);
  if (!note) throw new Error(`no shrunk sequence in the notes:\n${result.notes.join('\n')}\n${result.message ?? ''}`);
  return note[1]!.split('; ');
}

const isUpload = (sent: ProxiedRequest) => sent.method === 'POST' && sent.path.split('?')[0] === '/v1/assets';
const isAssetPath = (sent: ProxiedRequest, method: string) => isOperation(sent, method, '/v1/assets/');
const assetIdOf = (sent: ProxiedRequest) => decodeURIComponent(sent.path.split('?')[0]!.split('/').pop()!);
const bearer = (key: string) => `Bearer ${key}`;
const withKey = (sent: ProxiedRequest, key: string): ProxiedRequest => ({ ...sent, headers: { ...sent.headers, authorization: bearer(key) } });
const isSuccess = (received: ProxiedResponse) => received.status >= 200 && received.status < 300;
const idOf = (received: ProxiedResponse) => JSON.parse(received.body.toString('utf8')).id as string;

/**
 * (a) Once project A deletes an asset and uploads again, project B's GET of the deleted id is sent
 * with A's key for A's new asset: the deleted id comes to name it. (A key swap alone would meet
 * 404 for the deleted id, which the model accepts: after deletion only "not 2xx" is stated.)
 */
function deletedIdReadableAfterReupload(target: EmbeddedTarget): Mutation {
  const deletedByA = new Set<string>();
  let newestOfA: string | undefined;
  let uploadedSinceDelete = false;
  return {
    request: (sent) => {
      if (
        isAssetPath(sent, 'GET') &&
        sent.headers.authorization === bearer(target.keyB) &&
        deletedByA.has(assetIdOf(sent)) &&
        uploadedSinceDelete &&
        newestOfA
      ) {
        return { ...withKey(sent, target.keyA), path: `/v1/assets/${newestOfA}` };
      }
      return sent;
    },
    response: (received, sent) => {
      const byA = sent.headers.authorization === bearer(target.keyA);
      if (byA && isAssetPath(sent, 'DELETE') && isSuccess(received)) {
        deletedByA.add(assetIdOf(sent));
        uploadedSinceDelete = false;
      }
      if (byA && isUpload(sent) && received.status === 201) {
        newestOfA = idOf(received);
        if (deletedByA.size > 0) uploadedSinceDelete = true;
      }
      return received;
    },
  };
}

/** (b) GETs of a deleted asset by its owner are answered from a cache of upload answers. */
function deletedReadableFromCache(): Mutation {
  const uploads = new Map<string, { key: string; body: Buffer; headers: Record<string, string> }>();
  const deleted = new Set<string>();
  return {
    answer: (sent) => {
      if (!isAssetPath(sent, 'GET')) return undefined;
      const cached = uploads.get(assetIdOf(sent));
      return cached && deleted.has(assetIdOf(sent)) && cached.key === sent.headers.authorization
        ? { status: 200, headers: cached.headers, body: cached.body }
        : undefined;
    },
    response: (received, sent) => {
      if (isUpload(sent) && received.status === 201)
        uploads.set(idOf(received), { key: sent.headers.authorization ?? '', body: received.body, headers: received.headers });
      if (isAssetPath(sent, 'DELETE') && isSuccess(received)) deleted.add(assetIdOf(sent));
      return received;
    },
  };
}

/** (c) A decision of the short-lived project that references an expired asset is answered as if the asset were still there. */
function expiredStillReferenceable(target: EmbeddedTarget): Mutation {
  return {
    answer: async (sent) => {
      if (!isOperation(sent, 'POST', '/v1/decide') || sent.headers.authorization !== bearer(target.keyShortTtl)) return undefined;
      const forward = async (forwarded: ProxiedRequest): Promise<ProxiedResponse> => {
        const reply = await request(`${target.baseUrl}${sent.path}`, { method: 'POST', headers: forwarded.headers, body: forwarded.body });
        const headers = Object.fromEntries(
          Object.entries(reply.headers)
            .filter(([name]) => !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name))
            .map(([name, value]) => [name, String(value)]),
        );
        return { status: reply.statusCode, headers, body: Buffer.from(await reply.body.arrayBuffer()) };
      };
      const received = await forward(sent);
      if (received.status !== 410) return received;
      // The expired part is dropped and the rest of the decision answered: the expiry is not enforced.
      return forward(rewriteJsonRequest(sent, (body) => ({ ...body, context: body.context.filter((part: { type: string }) => part.type === 'text') })));
    },
  };
}

/** (d) Project B's DELETE is sent with project A's key. */
function otherProjectCanDelete(target: EmbeddedTarget): Mutation {
  return { request: (sent) => (isAssetPath(sent, 'DELETE') && sent.headers.authorization === bearer(target.keyB) ? withKey(sent, target.keyA) : sent) };
}

/** A server whose clock is an hour ahead of the kit's: every created_at and expires_at it answers is an hour later. */
function clockAnHourAhead(): Mutation {
  const later = (time: string) => new Date(Date.parse(time) + 3_600_000).toISOString();
  return {
    response: (received, sent) =>
      (isUpload(sent) || isAssetPath(sent, 'GET')) && isSuccess(received)
        ? rewriteJson(received, (asset) => ({ ...asset, created_at: later(asset.created_at), expires_at: later(asset.expires_at) }))
        : received,
  };
}

/** A server that answers every fourth request 429 RATE_LIMITED, asking for no wait. */
function rateLimitsEveryFourthRequest(): Mutation {
  let requests = 0;
  return {
    answer: () => {
      requests += 1;
      if (requests % 4 !== 0) return undefined;
      const body = { error: { code: 'RATE_LIMITED', message: 'Slow down.', request_id: 'req_0000ratelimit' } };
      return {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '0', 'x-request-id': 'req_0000ratelimit' },
        body: Buffer.from(JSON.stringify(body)),
      };
    },
  };
}

async function behindProxy(target: EmbeddedTarget, mutation: Mutation, options: RunOptions = {}): Promise<CheckResult> {
  const proxy = await startMutatingProxy(target.baseUrl, mutation);
  try {
    return await runLifecycle(target, proxy.baseUrl, options);
  } finally {
    await proxy.close();
  }
}

/** A failure's evidence: the message gives the seed, path and sequence; the last exchange is the failing request sent again. */
function expectReportedFailure(result: CheckResult, lastRequest: { method: string; path: RegExp }): void {
  expect(result.status, result.message).toBe('fail');
  expect(result.message).toMatch(/seed 1, path "[\d:]+"/);
  expect(result.message).toContain('shortest failing sequence [');
  expect(result.notes.some((note) => note.startsWith('Replay: fast-check seed 1, path "'))).toBe(true);
  const last = result.exchanges.at(-1)!;
  expect(last.request.method).toBe(lastRequest.method);
  expect(new URL(last.request.url).pathname).toMatch(lastRequest.path);
  expect(result.notes.some((note) => note.includes('sent once more') && note.includes(`curl -sS -i -X ${lastRequest.method}`))).toBe(true);
}

const UPLOAD = (project: string, ordinal: number) => new RegExp(`^Upload\\(${project}, [^)]+\\) -> #${ordinal}$`);

describe('PROP-ASSET-LIFECYCLE', () => {
  let target: EmbeddedTarget;

  beforeAll(async () => {
    target = await startEmbeddedTarget();
  });
  afterAll(async () => target?.stop());

  test('passes against the reference server, expiry included, in its default budget', { timeout: 60_000 }, async () => {
    const started = performance.now();
    const result = await runLifecycle(target, target.baseUrl, { expiry: true });
    const seconds = (performance.now() - started) / 1000;
    expect(result.status, `${result.message ?? ''}\n${result.notes.join('\n')}`).toBe('pass');
    const summary = result.notes.find((note) => note.includes('command sequences'))!;
    expect(summary.startsWith(`${DEFAULT_SEQUENCES} command sequences of up to ${MAX_COMMANDS} commands by projects A, B, S (seed 1)`)).toBe(true);
    for (const name of ['Upload', 'Get', 'Delete', 'ReferenceInDecide', 'GetUnknown', 'WaitForExpiry']) expect(summary).toMatch(new RegExp(`${name} [1-9]`));
    expect(summary).toMatch(/; [1-9]\d* expiry waits\.$/);
    // A figure, not a bound: how long the default budget takes depends on the machine and on how
    // busy it is; the check's own time limit is what bounds a run.
    console.info(`PROP-ASSET-LIFECYCLE, default budget with expiry: ${seconds.toFixed(1)} s`);
  });

  test('without a short-lived project it passes and says that expiry was left out', { timeout: 30_000 }, async () => {
    const result = await runLifecycle(target, target.baseUrl);
    expect(result.status, result.message).toBe('pass');
    expect(result.notes.join('\n')).toMatch(
      /Expiry commands \(uploads by the short-lived project S, WaitForExpiry\) left out: the target has no short-lived project/,
    );
    expect(result.notes.join('\n')).not.toMatch(/WaitForExpiry \d/);
  });

  test('without multimodal it passes without decisions and says so', { timeout: 30_000 }, async () => {
    const result = await runLifecycle(target, target.baseUrl, { capabilities: ['assets'] });
    expect(result.status, result.message).toBe('pass');
    expect(result.notes.join('\n')).toMatch(/ReferenceInDecide commands left out: the target does not claim the capability multimodal/);
    expect(result.exchanges.some((exchange) => exchange.request.url.endsWith('/v1/decide'))).toBe(false);
  });

  test('without a second key it is skipped with the reason', async () => {
    const result = await runLifecycle(target, target.baseUrl, { secondKey: false });
    expect(result.status).toBe('skip');
    expect(result.message).toMatch(/needs a key of a second project/);
    expect(result.exchanges).toHaveLength(0);
  });

  test('a server that rate-limits passes: a request answered 429 is sent again after Retry-After', { timeout: 30_000 }, async () => {
    const result = await behindProxy(target, rateLimitsEveryFourthRequest(), { numRuns: 30 });
    expect(result.status, result.message).toBe('pass');
    expect(result.notes.join('\n')).toMatch(/[1-9]\d* requests answered 429 were sent again after the Retry-After wait\./);
  });

  test('finds "asset readable by another project after a delete-and-reupload" and shrinks it to Upload, Delete, Upload, Get by B', {
    timeout: 60_000,
  }, async () => {
    const result = await behindProxy(target, deletedIdReadableAfterReupload(target));
    expectReportedFailure(result, { method: 'GET', path: /^\/v1\/assets\/asset_/ });
    const sequence = shrunkSequence(result);
    expect(sequence).toHaveLength(4);
    expect(sequence[0]).toMatch(UPLOAD('A', 1));
    expect(sequence[1]).toBe('Delete(A, #1)');
    expect(sequence[2]).toMatch(UPLOAD('A', 2));
    expect(sequence[3]).toBe('Get(B, #1)');
    expect(result.message).toContain(
      "an error status for project B's GET of #1, a deleted asset of project A: no other project reads an asset (seed 3 rule 1)",
    );
  });

  test('the same seed gives the same shrunk sequence, shrink count and replay path', { timeout: 90_000 }, async () => {
    const options = { seed: 7, numRuns: 300 };
    const first = await behindProxy(target, deletedIdReadableAfterReupload(target), options);
    const second = await behindProxy(target, deletedIdReadableAfterReupload(target), options);
    expect(first.status, first.message).toBe('fail');
    expect(second.status, second.message).toBe('fail');
    const sequenceNote = (result: CheckResult) => result.notes.find((note) => SEQUENCE_NOTE.test(note));
    const replayNote = (result: CheckResult) => result.notes.find((note) => note.startsWith('Replay:'));
    expect(sequenceNote(first)).toMatch(/shrunk [1-9]\d* times/);
    expect(sequenceNote(second)).toBe(sequenceNote(first));
    expect(replayNote(first)).toMatch(/^Replay: fast-check seed 7, path "\d+(:\d+)+", fc.commands replayPath "[^"]+"\.$/);
    expect(replayNote(second)).toBe(replayNote(first));
  });

  test('finds "GET after delete succeeds" and shrinks it to Upload, Delete, Get by the owner', { timeout: 60_000 }, async () => {
    const result = await behindProxy(target, deletedReadableFromCache());
    expectReportedFailure(result, { method: 'GET', path: /^\/v1\/assets\/asset_/ });
    const sequence = shrunkSequence(result);
    expect(sequence).toHaveLength(3);
    const owner = /^Upload\(([AB]),/.exec(sequence[0]!)?.[1];
    expect(sequence[0]).toMatch(UPLOAD(owner!, 1));
    expect(sequence.slice(1)).toEqual([`Delete(${owner}, #1)`, `Get(${owner}, #1)`]);
  });

  test('finds "another project can delete" and shrinks it to Upload, Delete by B', { timeout: 60_000 }, async () => {
    const result = await behindProxy(target, otherProjectCanDelete(target));
    expectReportedFailure(result, { method: 'DELETE', path: /^\/v1\/assets\/asset_/ });
    const sequence = shrunkSequence(result);
    expect(sequence).toHaveLength(2);
    expect(sequence[0]).toMatch(/^Upload\([AB], [^)]+\) -> #1$/);
    expect(sequence[1]).toBe('Delete(B, #1)');
  });
});

describe('PROP-ASSET-LIFECYCLE and expiry', () => {
  let target: EmbeddedTarget;

  beforeAll(async () => {
    // A short lifetime keeps each expiry wait (lifetime + the 1 s clock tolerance) short while shrinking.
    target = await startEmbeddedTarget({ shortTtlMs: 300 });
  });
  afterAll(async () => target?.stop());

  test("a server whose clock is an hour ahead passes: expiry is judged from each asset's lifetime, not the kit's clock", { timeout: 60_000 }, async () => {
    const result = await behindProxy(target, clockAnHourAhead(), { expiry: true, numRuns: 50 });
    expect(result.status, `${result.message ?? ''}\n${result.notes.join('\n')}`).toBe('pass');
    expect(result.notes.join('\n')).toMatch(/of an expired asset [1-9]/);
  });

  test('finds "expired asset still referenceable" and shrinks it to Upload by S, WaitForExpiry, ReferenceInDecide by S', { timeout: 120_000 }, async () => {
    const result = await behindProxy(target, expiredStillReferenceable(target), { expiry: true });
    expectReportedFailure(result, { method: 'POST', path: /^\/v1\/decide$/ });
    const sequence = shrunkSequence(result);
    expect(sequence).toHaveLength(3);
    expect(sequence[0]).toMatch(UPLOAD('S', 1));
    expect(sequence[1]).toBe('WaitForExpiry');
    expect(sequence[2]).toMatch(/^ReferenceInDecide\(S, #1, (image|document|audio)\)$/);
    expect(result.message).toMatch(/status 410 with ASSET_EXPIRED/);
  });
});
