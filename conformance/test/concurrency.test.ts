// Proof of the concurrency area: every check passes against the reference server with a real
// overlap; each MUST check fails against a server that is right one request at a time and wrong
// when requests overlap (harness/testing/overlap-bugs.ts, and two more bug classes below); and a
// server that handles one request at a time is not failed but reported as "no overlap achieved".
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { ALL_CAPABILITIES } from '../../harness/check.ts';
import { runChecks } from '../../harness/runner.ts';
import { CRITICAL_SECTION_MS, overlapBugs } from '../../harness/testing/overlap-bugs.ts';
import { forward, isOperation, startMutatingProxy, type Mutation, type ProxiedResponse } from '../../harness/testing/mutating-proxy.ts';
import { renderMarkdown } from '../../reports/markdown.ts';
import { buildRunReport } from '../../reports/run-report.ts';
import { checks } from '../registry.ts';
import { proveChecks } from './support/proof.ts';

/** A 500 in the seed's error body, as a server gives when something it shares breaks. */
function internalError(requestId: string): ProxiedResponse {
  const body = { error: { code: 'INTERNAL_ERROR', message: 'The asset vanished while it was read.', request_id: requestId } };
  return { status: 500, headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId }, body: Buffer.from(JSON.stringify(body)) };
}

/**
 * A server whose decide reads an asset's record without a guard against its deletion: a decide
 * that arrives while a DELETE of the asset it references is being handled answers 500. One
 * request at a time, a decide meets the asset whole or deleted and is answered right.
 */
const decideBreaksDuringDeletion = ({ baseUrl }: EmbeddedTarget): Mutation => {
  const deleting = new Set<string>();
  return {
    async answer(sent) {
      if (isOperation(sent, 'DELETE', '/v1/assets/')) {
        const assetId = sent.path.split('/').pop()!;
        deleting.add(assetId);
        try {
          await sleep(CRITICAL_SECTION_MS); // the record is being removed from the store
          return await forward(baseUrl, sent);
        } finally {
          deleting.delete(assetId);
        }
      }
      const body = sent.body.toString('utf8');
      if (isOperation(sent, 'POST', '/v1/decide') && [...deleting].some((assetId) => body.includes(assetId))) return internalError(`req_${'0'.repeat(24)}`);
      return undefined;
    },
  };
};

/**
 * How far apart the server below answers requests that arrive while another is being handled.
 * "Together" means closer than half the latency of a request sent alone (overlap.ts), and a
 * request alone is answered at once here; the kit could only see two answers of a burst
 * together if its own process stalled for longer than this between reading them, in most of a
 * check's bursts. A machine with more runnable processes than cores stalls a process for a few
 * scheduler slices (10 to 20 ms seen), which 25 ms apart was too close to.
 */
const SEQUENTIAL_WORK_MS = 50;

/**
 * A server that handles one request at a time: a request that arrives while others are handled
 * waits for them, then takes SEQUENTIAL_WORK_MS. Only requests that overlap pay for it, so the
 * checks' many requests sent alone cost no more than against the good server.
 */
const oneAtATime = ({ baseUrl }: EmbeddedTarget): Mutation => {
  let queue: Promise<unknown> = Promise.resolve();
  let handling = 0;
  return {
    answer(sent) {
      const waited = handling > 0;
      handling += 1;
      const turn = queue.then(async () => {
        if (waited) await sleep(SEQUENTIAL_WORK_MS);
        return forward(baseUrl, sent);
      });
      queue = turn.catch(() => undefined).finally(() => (handling -= 1));
      return turn;
    },
  };
};

/**
 * A batching server that writes each answer's confidence from the wrong row of its batch:
 * decides with the same questions that arrive within one batch window are scored together, and
 * each gets the confidences of the next request in the batch. Alone, a batch is one request and
 * every answer is right; together, a confidence no longer is its own top-1 minus top-2.
 */
const confidenceFromAnotherRow = ({ baseUrl }: EmbeddedTarget): Mutation => {
  const batches = new Map<string, Array<Promise<ProxiedResponse>>>();
  return {
    async answer(sent) {
      if (!isOperation(sent, 'POST', '/v1/decide')) return undefined;
      const key = JSON.stringify((JSON.parse(sent.body.toString('utf8')) as { questions?: unknown }).questions ?? null);
      const batch = batches.get(key) ?? [];
      if (batch.length === 0) {
        batches.set(key, batch);
        setTimeout(() => batches.delete(key), CRITICAL_SECTION_MS); // the batch window closes
      }
      const row = batch.length;
      const own = sleep(CRITICAL_SECTION_MS).then(() => forward(baseUrl, sent));
      batch.push(own);
      const answered = await own;
      const rows = await Promise.all(batch);
      const next = rows[(row + 1) % rows.length]!;
      if (rows.length === 1 || answered.status !== 200 || next.status !== 200) return answered;
      const mine = JSON.parse(answered.body.toString('utf8')) as { answers: Record<string, { confidence?: number }> };
      const theirs = JSON.parse(next.body.toString('utf8')) as { answers: Record<string, { confidence?: number }> };
      for (const [id, answer] of Object.entries(mine.answers)) {
        const confidence = theirs.answers[id]?.confidence;
        if (confidence !== undefined) answer.confidence = confidence;
      }
      return { ...answered, body: Buffer.from(JSON.stringify(mine)) };
    },
  };
};

describe('concurrency', () => {
  proveChecks('concurrency', {
    'CONCURRENT-CALLER-REQUEST-IDS': [overlapBugs.requestIdInSharedState],
    'CONCURRENT-GENERATED-REQUEST-IDS': [overlapBugs.requestIdInSharedState],
    'CONCURRENT-ANSWERS-SHARED-CONTEXT': [overlapBugs.answerCacheKeyedByContext],
    'CONCURRENT-ANSWERS-SHARED-QUESTIONS': [
      overlapBugs.errorsUnderOverlap,
      { fault: "writes each answer's confidence from another request of its batch", mutation: confidenceFromAnotherRow },
    ],
    'CONCURRENT-NO-ERRORS': [overlapBugs.errorsUnderOverlap],
    'CONCURRENT-UPLOAD-IDS-DISTINCT': [overlapBugs.uploadIdRace],
    'CONCURRENT-UPLOAD-READ-OWN': [overlapBugs.uploadIdRace],
    'CONCURRENT-ISOLATION': [overlapBugs.projectInSharedState],
    'CONCURRENT-DECIDE-WHILE-DELETING': [
      { fault: 'answers 500 to a decide that references an asset while it is being deleted', mutation: decideBreaksDuringDeletion },
    ],
  });
});

describe('a server that handles one request at a time', () => {
  let target: EmbeddedTarget;
  beforeAll(async () => {
    target = await startEmbeddedTarget();
  });
  afterAll(async () => target.stop());

  test('is not failed, and every concurrency check reports that no overlap was achieved', async () => {
    const proxy = await startMutatingProxy(target.baseUrl, oneAtATime(target));
    try {
      const areaChecks = checks.filter((check) => check.area === 'concurrency');
      const startedAt = new Date();
      const results = await runChecks(areaChecks, {
        target: { baseUrl: proxy.baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: true },
        keyA: target.keyA,
        keyB: target.keyB,
        timeoutMs: 10_000,
      });
      for (const result of results) {
        const why = `${result.id}: ${result.message ?? ''}\n${result.notes.join('\n')}`;
        expect(result.overlap?.maxInFlight, why).toBeGreaterThan(1);
        expect(result.overlap?.answeredTogether, why).toBe(1);
        if (result.level === 'OBSERVE') expect(result.status, why).toBe('observed');
        else {
          expect(result.status, why).toBe('skip');
          expect(result.message, why).toMatch(/^no overlap achieved/);
        }
      }
      const report = buildRunReport({
        results,
        target: { baseUrl: proxy.baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: true, embedded: false },
        seed: 1,
        suites: ['conformance'],
        startedAt,
        finishedAt: new Date(),
        warmup: { durationMs: 1, ok: true },
        secrets: [target.keyA, target.keyB],
      });
      expect(report.summary.must_failed).toBe(0);
      expect(report.overlap_by_area?.concurrency).toMatchObject({ achieved: false, answered_together: 1 });
      expect(renderMarkdown(report)).toMatch(/Overlap in `concurrency`: .*no overlap achieved/);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
