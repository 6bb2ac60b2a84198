// The servers of overlap-bugs.ts are what they claim: right one request at a time (a few requests
// in a row, and the whole sequential conformance suite with 0 MUST failures), and wrong when
// requests really overlap (N requests sent together, the symptom read off the responses).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../cli/embedded-target.ts';
import { checks as conformanceChecks } from '../../conformance/registry.ts';
import { sha256Hex } from '../assets-support.ts';
import { ALL_CAPABILITIES } from '../check.ts';
import { apiClient, type ApiClient } from '../context.ts';
import { createHttp, type Reply } from '../http.ts';
import { choiceQuestion, decideBody } from '../requests.ts';
import { runChecks } from '../runner.ts';
import { overlapBugs, type OverlapBug } from '../testing/overlap-bugs.ts';
import { startMutatingProxy } from '../testing/mutating-proxy.ts';

/** Requests sent together in each burst. */
const N = 8;

let target: EmbeddedTarget;
beforeAll(async () => {
  target = await startEmbeddedTarget();
});
afterAll(async () => target.stop());

interface Clients {
  a: ApiClient;
  b: ApiClient;
  anonymous: ApiClient;
  baseUrl: string;
}

/** Runs `use` with clients of both projects talking to the good server behind `bug`. */
async function behind(bug: OverlapBug, use: (clients: Clients) => Promise<void>): Promise<void> {
  const proxy = await startMutatingProxy(target.baseUrl, bug.mutation(target));
  try {
    const http = createHttp({ baseUrl: proxy.baseUrl, timeoutMs: 10_000, secrets: [], record: () => undefined });
    await use({ a: apiClient(http, target.keyA), b: apiClient(http, target.keyB), anonymous: apiClient(http, null), baseUrl: proxy.baseUrl });
  } finally {
    await proxy.close();
  }
}

/** Sends one at a time: each request leaves only after the previous answer came back. */
async function oneAtATime<T>(count: number, send: (index: number) => Promise<T>): Promise<T[]> {
  const replies: T[] = [];
  for (let index = 0; index < count; index += 1) replies.push(await send(index));
  return replies;
}

/** Sends `count` requests together. */
function together<T>(count: number, send: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => send(index)));
}

const callerId = (index: number) => `overlap-${index}-${Date.now()}`;
/** A decide the good server refuses (400): no questions. */
const invalidDecide = { context: 'I was charged twice.', questions: {} };
/** A decide whose one question and its options are named after `index`. */
const decideNumbered = (index: number) => ({ context: 'I was charged twice for order 1182.', questions: { [`question_${index}`]: choiceQuestion({ [`refund_${index}`]: 'A refund', [`delivery_${index}`]: 'A delivery' }) } });
const answeredIds = (reply: Reply) => ({ questions: Object.keys(reply.json?.answers ?? {}), options: Object.keys(Object.values<any>(reply.json?.answers ?? {})[0]?.probabilities ?? {}) });
const ownIds = (index: number) => ({ questions: [`question_${index}`], options: [`refund_${index}`, `delivery_${index}`] });
const textFile = (index: number) => Buffer.from(`Upload number ${index}: the invoice of order ${1000 + index} was charged twice.\n`);

describe('requestIdInSharedState', () => {
  const bug = overlapBugs.requestIdInSharedState;

  test('one at a time, every response carries its own request id', async () => {
    await behind(bug, async ({ a }) => {
      const ids = Array.from({ length: 4 }, (_, index) => callerId(index));
      const successes = await oneAtATime(4, (index) => a.decide(decideBody(), { 'x-request-id': ids[index]! }));
      const errors = await oneAtATime(4, (index) => a.decide(invalidDecide, { 'x-request-id': ids[index]! }));
      expect(successes.map((reply) => [reply.status, reply.headers['x-request-id']])).toEqual(ids.map((id) => [200, id]));
      expect(errors.map((reply) => [reply.status, reply.headers['x-request-id'], reply.json?.error?.request_id])).toEqual(ids.map((id) => [400, id, id]));
      const generated = await oneAtATime(4, () => a.decide(decideBody()));
      expect(new Set(generated.map((reply) => reply.headers['x-request-id'])).size).toBe(4);
    });
  });

  test(`${N} requests together get other requests' ids, on successes, on errors and when generated`, async () => {
    await behind(bug, async ({ a }) => {
      const ids = Array.from({ length: N }, (_, index) => callerId(index));
      const successes = await together(N, (index) => a.decide(decideBody(), { 'x-request-id': ids[index]! }));
      expect(successes.filter((reply, index) => reply.headers['x-request-id'] !== ids[index]).length).toBeGreaterThan(0);
      const errors = await together(N, (index) => a.decide(invalidDecide, { 'x-request-id': ids[index]! }));
      expect(errors.every((reply) => reply.status === 400)).toBe(true);
      expect(errors.filter((reply, index) => reply.json?.error?.request_id !== ids[index]).length).toBeGreaterThan(0);
      const generated = await together(N, () => a.decide(decideBody()));
      expect(new Set(generated.map((reply) => reply.headers['x-request-id'])).size).toBeLessThan(N);
    });
  });
});

describe('answerCacheKeyedByContext', () => {
  const bug = overlapBugs.answerCacheKeyedByContext;

  test('one at a time, decides of one context answer their own question and option ids', async () => {
    await behind(bug, async ({ a }) => {
      const replies = await oneAtATime(4, (index) => a.decide(decideNumbered(index)));
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
      expect(replies.map(answeredIds)).toEqual([0, 1, 2, 3].map(ownIds));
    });
  });

  test(`${N} decides of one context sent together get another decide's answers`, async () => {
    await behind(bug, async ({ a }) => {
      const replies = await together(N, (index) => a.decide(decideNumbered(index)));
      expect(replies.every((reply) => reply.status === 200)).toBe(true);
      const foreign = replies.filter((reply, index) => JSON.stringify(answeredIds(reply)) !== JSON.stringify(ownIds(index)));
      expect(foreign.length).toBeGreaterThan(0);
    });
  });
});

describe('uploadIdRace', () => {
  const bug = overlapBugs.uploadIdRace;

  test('one at a time, uploads get distinct ids that read back their own sha256, size and type', async () => {
    await behind(bug, async ({ a, b }) => {
      const clients = [a, b, a, b];
      const uploads = await oneAtATime(4, (index) => clients[index]!.upload(textFile(index), 'text/plain'));
      expect(uploads.map((reply) => reply.status)).toEqual([201, 201, 201, 201]);
      const ids = uploads.map((reply) => reply.json.id as string);
      expect(new Set(ids).size).toBe(4);
      const reads = await oneAtATime(4, (index) => clients[index]!.getAsset(ids[index]!));
      expect(reads.map((reply) => [reply.status, reply.json?.sha256, reply.json?.size_bytes, reply.json?.mime_type])).toEqual(
        [0, 1, 2, 3].map((index) => [200, sha256Hex(textFile(index)), textFile(index).length, 'text/plain']),
      );
      const deletes = await oneAtATime(4, (index) => clients[index]!.deleteAsset(ids[index]!));
      expect(deletes.every((reply) => reply.status >= 200 && reply.status < 300)).toBe(true);
    });
  });

  test(`${N} uploads by two projects sent together share ids, and a read gives back another upload`, async () => {
    await behind(bug, async ({ a, b }) => {
      const clientOf = (index: number) => (index % 2 === 0 ? a : b);
      const uploads = await together(N, (index) => clientOf(index).upload(textFile(index), 'text/plain'));
      expect(uploads.every((reply) => reply.status === 201)).toBe(true);
      const ids = uploads.map((reply) => reply.json.id as string);
      expect(new Set(ids).size).toBeLessThan(N);
      const reads = await oneAtATime(N, (index) => clientOf(index).getAsset(ids[index]!));
      const notOwn = reads.filter((reply, index) => reply.status !== 200 || reply.json?.sha256 !== sha256Hex(textFile(index)));
      expect(notOwn.length).toBeGreaterThan(0);
    });
  });
});

describe('projectInSharedState', () => {
  const bug = overlapBugs.projectInSharedState;

  test("one at a time, each project gets 403 on the other's asset and 200 on its own", async () => {
    await behind(bug, async ({ a, b, anonymous }) => {
      const ofA = (await a.upload(textFile(1), 'text/plain')).json.id as string;
      const ofB = (await b.upload(textFile(2), 'text/plain')).json.id as string;
      const reads = await oneAtATime(4, (index) => [() => a.getAsset(ofB), () => b.getAsset(ofA), () => a.getAsset(ofA), () => b.getAsset(ofB)][index]!());
      expect(reads.map((reply) => [reply.status, reply.json?.error?.code ?? reply.json?.id])).toEqual([
        [403, 'ASSET_FORBIDDEN'],
        [403, 'ASSET_FORBIDDEN'],
        [200, ofA],
        [200, ofB],
      ]);
      expect((await anonymous.getAsset(ofA)).status).toBe(401);
    });
  });

  test(`${N} reads of the other project's asset, by both projects together, are served as the other project`, async () => {
    await behind(bug, async ({ a, b }) => {
      const ofA = (await a.upload(textFile(1), 'text/plain')).json.id as string;
      const ofB = (await b.upload(textFile(2), 'text/plain')).json.id as string;
      const reads = await together(N, (index) => (index % 2 === 0 ? a.getAsset(ofB) : b.getAsset(ofA)));
      expect(reads.filter((reply) => reply.status === 200).length).toBeGreaterThan(0);
    });
  });
});

describe('errorsUnderOverlap', () => {
  const bug = overlapBugs.errorsUnderOverlap;

  test('one at a time, every decide succeeds', async () => {
    await behind(bug, async ({ a }) => {
      const replies = await oneAtATime(6, () => a.decide(decideBody()));
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200, 200]);
    });
  });

  test(`${N} decides sent together get 5xx answers`, async () => {
    await behind(bug, async ({ a }) => {
      const replies = await together(N, () => a.decide(decideBody()));
      expect(replies.filter((reply) => reply.status >= 500).length).toBeGreaterThan(0);
    });
  });
});

// The suite as it stands sends one request at a time: it passes every one of these servers,
// which is what makes them worth catching.
describe.each(Object.entries(overlapBugs))('the sequential conformance suite against %s', (_name, bug) => {
  test('gives 0 MUST failures', async () => {
    await behind(bug, async ({ baseUrl }) => {
      const results = await runChecks(conformanceChecks, {
        target: { baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: true, shortTtl: { key: target.keyShortTtl, ttlMs: target.shortTtlMs } },
        keyA: target.keyA,
        keyB: target.keyB,
        timeoutMs: 10_000,
        checkTimeoutMs: 60_000,
        seed: 20_261_126,
      });
      expect(results.length).toBe(conformanceChecks.length);
      const mustFailures = results.filter((result) => result.level === 'MUST' && result.status !== 'pass' && result.status !== 'skip');
      expect(mustFailures.map((result) => `${result.id}: ${result.message ?? result.status}`)).toEqual([]);
    });
  }, 240_000);
});
