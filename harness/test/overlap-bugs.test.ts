// The servers of overlap-bugs.ts are what they claim: right one request at a time (a few requests
// in a row, and the whole sequential conformance suite with 0 MUST failures), and wrong when
// requests really overlap (N requests sent together, the symptom read off the responses).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { checks as conformanceChecks } from '../../conformance/registry.ts';
import { sha256Hex } from '../assets-support.ts';
import { ALL_CAPABILITIES } from '../check.ts';
import { apiClient, type ApiClient } from '../context.ts';
import { createHttp, type Reply } from '../http.ts';
import { choiceQuestion, decideBody } from '../requests.ts';
import { runChecks } from '../runner.ts';
import { overlapBugs, type OverlapBug, type OverlapBugName } from '../testing/overlap-bugs.ts';
import { withBurstBarrier } from '../testing/burst-barrier.ts';
import { startMutatingProxy, type RunningProxy } from '../testing/mutating-proxy.ts';

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
  /**
   * Sends `count` requests together, through a barrier in front of the broken server: they reach
   * it together and overlap in its shared state on any machine (burst-barrier.ts).
   */
  together<T>(count: number, send: (index: number) => Promise<T>): Promise<T[]>;
}

/** Runs `use` with clients of both projects talking to the good server (`target`) behind `bug`. */
async function behind(bug: OverlapBug, use: (clients: Clients) => Promise<void>): Promise<void> {
  const proxy = await startMutatingProxy(target.baseUrl, bug.mutation(target));
  try {
    const http = createHttp({ baseUrl: proxy.baseUrl, timeoutMs: 10_000, secrets: [], record: () => undefined });
    const together = <T>(count: number, send: (index: number) => Promise<T>) =>
      withBurstBarrier(proxy.server, () => Promise.all(Array.from({ length: count }, (_, index) => send(index))), { size: count });
    await use({ a: apiClient(http, target.keyA), b: apiClient(http, target.keyB), anonymous: apiClient(http, null), baseUrl: proxy.baseUrl, together });
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

const callerId = (index: number) => `overlap-${index}-${Date.now()}`;
/** A decide the good server refuses (400): no questions. */
const invalidDecide = { context: 'I was charged twice.', questions: {} };
/** A decide whose one question and its options are named after `index`. */
const decideNumbered = (index: number) => ({
  context: 'I was charged twice for order 1182.',
  questions: { [`question_${index}`]: choiceQuestion({ [`refund_${index}`]: 'A refund', [`delivery_${index}`]: 'A delivery' }) },
});
const answeredIds = (reply: Reply) => ({
  questions: Object.keys(reply.json?.answers ?? {}),
  options: Object.keys(Object.values<any>(reply.json?.answers ?? {})[0]?.probabilities ?? {}),
});
const ownIds = (index: number) => ({ questions: [`question_${index}`], options: [`refund_${index}`, `delivery_${index}`] });
const textFile = (index: number) => Buffer.from(`Upload number ${index}: the invoice of order ${1000 + index} was charged twice.${'!'.repeat(index)}\n`);
/** Uploads of the bursts differ in content, size and type. */
const uploadType = (index: number) => (index % 4 < 2 ? 'text/plain' : 'text/markdown');
/** What a read of upload `index` must give back (seed 2.5). */
const describedAs = (index: number) => ({ sha256: sha256Hex(textFile(index)), size_bytes: textFile(index).length, mime_type: uploadType(index) });
const describedIn = (reply: Reply) => ({ sha256: reply.json?.sha256, size_bytes: reply.json?.size_bytes, mime_type: reply.json?.mime_type });

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
      expect(generated.map((reply) => /^req_[0-9a-f]+$/.test(reply.headers['x-request-id'] ?? ''))).toEqual([true, true, true, true]);
      expect(new Set(generated.map((reply) => reply.headers['x-request-id'])).size).toBe(4);
    });
  });

  test(`${N} requests together get other requests' ids, on successes, on errors and when generated`, async () => {
    await behind(bug, async ({ a, together }) => {
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
    await behind(bug, async ({ a, together }) => {
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
      const uploads = await oneAtATime(4, (index) => clients[index]!.upload(textFile(index), uploadType(index)));
      expect(uploads.map((reply) => reply.status)).toEqual([201, 201, 201, 201]);
      const ids = uploads.map((reply) => reply.json.id as string);
      expect(new Set(ids).size).toBe(4);
      const reads = await oneAtATime(4, (index) => clients[index]!.getAsset(ids[index]!));
      expect(reads.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
      expect(reads.map(describedIn)).toEqual([0, 1, 2, 3].map(describedAs));
      const deletes = await oneAtATime(4, (index) => clients[index]!.deleteAsset(ids[index]!));
      expect(deletes.every((reply) => reply.status >= 200 && reply.status < 300)).toBe(true);
    });
  });

  test(`${N} uploads by two projects sent together share ids, and a read gives back another upload`, async () => {
    await behind(bug, async ({ a, b, together }) => {
      const clientOf = (index: number) => (index % 2 === 0 ? a : b);
      const uploads = await together(N, (index) => clientOf(index).upload(textFile(index), uploadType(index)));
      expect(uploads.every((reply) => reply.status === 201)).toBe(true);
      const ids = uploads.map((reply) => reply.json.id as string);
      expect(new Set(ids).size).toBeLessThan(N);
      const reads = await oneAtATime(N, (index) => clientOf(index).getAsset(ids[index]!));
      // A read by the uploader gives back another upload of the burst: its sha256, size and type.
      const others = (index: number) =>
        Array.from({ length: N }, (_, other) => other)
          .filter((other) => other !== index)
          .map((other) => JSON.stringify(describedAs(other)));
      const anotherUpload = reads.filter((reply, index) => reply.status === 200 && others(index).includes(JSON.stringify(describedIn(reply))));
      expect(anotherUpload.length).toBeGreaterThan(0);
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
    await behind(bug, async ({ a, b, together }) => {
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
    await behind(bug, async ({ a, together }) => {
      const replies = await together(N, () => a.decide(decideBody()));
      expect(replies.filter((reply) => reply.status >= 500).length).toBeGreaterThan(0);
    });
  });
});

// The suite as it stands sends one request at a time: it passes every one of these servers,
// which is what makes them worth catching. These are its areas, each of whose checks sends one
// request at a time; an area of checks on overlapping requests is left out on purpose, since
// catching these servers is its job. Against the default profile every one of these areas runs,
// through all the bugs at once; against the alternate profile (other choices on the open points,
// e.g. invalid caller ids refused, the sha256 in upper case), through each bug, the areas it touches.
const SEQUENTIAL_AREAS = [
  'auth',
  'request-ids',
  'decide-validation',
  'decide-answers',
  'limits',
  'assets',
  'media-privacy',
  'isolation',
  'errors',
  'models',
  'feedback',
  'service',
];
const AREAS_TOUCHED: Record<OverlapBugName, string[]> = {
  requestIdInSharedState: ['auth', 'request-ids', 'errors', 'feedback'],
  answerCacheKeyedByContext: ['decide-validation', 'decide-answers'],
  uploadIdRace: ['assets', 'isolation', 'media-privacy'],
  projectInSharedState: ['auth', 'assets', 'isolation'],
  errorsUnderOverlap: ['decide-validation', 'decide-answers', 'limits'],
};

test('the sequential areas are areas of the catalogue, and the areas touched are among them', () => {
  const areas = new Set(conformanceChecks.map((check) => check.area));
  expect(SEQUENTIAL_AREAS.filter((name) => !areas.has(name))).toEqual([]);
  expect(
    Object.values(AREAS_TOUCHED)
      .flat()
      .filter((name) => !SEQUENTIAL_AREAS.includes(name)),
  ).toEqual([]);
});

/**
 * The good server behind every bug at once, each proxy in front of the one before: one request at
 * a time each is the good server, so the chain is too. A sequential suite through it stands for
 * one through each bug (a failure one bug caused would have to be undone exactly by another).
 */
async function behindEvery(bugs: readonly OverlapBug[], good: EmbeddedTarget, use: (baseUrl: string) => Promise<void>): Promise<void> {
  const proxies: RunningProxy[] = [];
  try {
    for (const bug of bugs) {
      const upstream = proxies.at(-1)?.baseUrl ?? good.baseUrl;
      proxies.push(await startMutatingProxy(upstream, bug.mutation({ ...good, baseUrl: upstream })));
    }
    await use(proxies.at(-1)!.baseUrl);
  } finally {
    for (const proxy of proxies.reverse()) await proxy.close();
  }
}

async function mustFailuresOfSequentialSuite(bugs: readonly OverlapBug[], good: EmbeddedTarget, areas: readonly string[]): Promise<string[]> {
  const selected = conformanceChecks.filter((check) => areas.includes(check.area));
  let failures: string[] = [];
  await behindEvery(bugs, good, async (baseUrl) => {
    const results = await runChecks(selected, {
      target: { baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: true, shortTtl: { key: good.keyShortTtl, ttlMs: good.shortTtlMs } },
      keyA: good.keyA,
      keyB: good.keyB,
      timeoutMs: 10_000,
      checkTimeoutMs: 60_000,
      seed: 20_261_126,
    });
    expect(results.length).toBe(selected.length);
    failures = results
      .filter((result) => result.level === 'MUST' && result.status !== 'pass' && result.status !== 'skip')
      .map((result) => `${result.id}: ${result.message ?? result.status}`);
  });
  return failures;
}

/** One suite run takes 10 to 45 s; five side by side in one process on a loaded two-core machine, up to about 130 s. */
const SUITE_TIMEOUT_MS = 400_000;

// Each run is sequential through its own broken servers; the runs go side by side (they share no
// state but the good server's), since most of their time is waiting. Against the default profile,
// every sequential area through all the bugs at once; against the alternate profile, through each
// bug, the areas it touches.
describe.concurrent('the sequential conformance suite', () => {
  let alternate: EmbeddedTarget;
  beforeAll(async () => {
    alternate = await startEmbeddedTarget({ profile: 'alternate' });
  });
  afterAll(async () => alternate.stop());

  test(
    'gives every bug at once 0 MUST failures, every sequential area, default profile behind them',
    async () => {
      expect(await mustFailuresOfSequentialSuite(Object.values(overlapBugs), target, SEQUENTIAL_AREAS)).toEqual([]);
    },
    SUITE_TIMEOUT_MS,
  );

  for (const [name, bug] of Object.entries(overlapBugs) as Array<[OverlapBugName, OverlapBug]>) {
    test(
      `gives ${name} 0 MUST failures, areas ${AREAS_TOUCHED[name].join(', ')}, alternate profile behind it`,
      async () => {
        expect(await mustFailuresOfSequentialSuite([bug], alternate, AREAS_TOUCHED[name])).toEqual([]);
      },
      SUITE_TIMEOUT_MS,
    );
  }
});
