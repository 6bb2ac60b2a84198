// Concurrency (seed 2.1, 2.4, 2.5, 2.7, 3, 5, 7): every rule that holds for one request holds for
// every request, overlapping or not. Each check first sends its requests alone, one after the
// other (they must pass, as the sequential checks require), then sends them together, several at
// once, in a few rounds, and judges every answer by the same rules. The requests sent alone go out
// among the other checks' (--workers); the bursts wait until the check has the server to itself
// (t.alone()), so that the overlap measured is the check's own. What servers add to become fast (batching, caches,
// pools, id generators) keeps state between requests; these checks are where it shows.
//
// The overlap is measured, not assumed: the runner reports how many requests were in flight and
// how many answers came together (harness/overlap.ts), and a check whose rule held while the
// server answered one request at a time is skipped rather than passed (it saw nothing overlap).
import { expectAnswered, sentQuestions } from '../harness/answer-judgement.ts';
import { canonical } from '../harness/answer-rules.ts';
import { assetDifferences, decideReferencing, sha256EncodingOf, sha256Hex, uploadSample, type Asset } from '../harness/assets-support.ts';
import { area, CheckFailure, type Check, type CheckRequirements } from '../harness/check.ts';
import type { ApiClient, CheckContext } from '../harness/context.ts';
import {
  describeReply,
  expectError,
  expectErrorBody,
  expectRequestIdHeader,
  expectStatus,
  expectSuccess,
  expectValidBody,
  isSuccess,
} from '../harness/expect.ts';
import { TransportError, type Reply } from '../harness/http.ts';
import { inFlight } from '../harness/in-flight.ts';
import { asCleanup, sendTogether } from '../harness/overlap-group.ts';
import { choiceQuestion, decideBody } from '../harness/requests.ts';
import { pngImage, plainTextSample } from '../harness/samples/media.ts';
import { textBytes } from '../harness/samples/text.ts';
import { generatedRequestIdPattern } from '../spec/index.ts';

/** How many times each check sends its requests together: a race one round misses, another may hit. */
const ROUNDS = 3;

const TWO_PROJECTS: CheckRequirements = { secondKey: true, capabilities: ['assets'] };
/** Referencing an asset from a decision needs list contexts with media parts as well. */
const ASSETS_IN_DECISIONS: CheckRequirements = { capabilities: ['assets', 'multimodal'] };

/** The spec's form of a generated id: `req_<hex>`. */
const GENERATED_ID = generatedRequestIdPattern;

type DecideBody = { context: unknown; questions: Record<string, unknown> };

/** One request of a check, sent alone first and then together with the others. */
interface Planned {
  label: string;
  /** `attempt` 0 is the request sent alone; 1 to ROUNDS, the rounds sent together. */
  send(attempt: number): Promise<Reply>;
  /** Judges its reply, alone or together; throws CheckFailure. */
  judge(reply: Reply, attempt: number): void;
}

/** Runs `judge`; a failure also says which request it was about. */
function judgedAs(label: string, judge: () => void): void {
  try {
    judge();
  } catch (error) {
    if (error instanceof CheckFailure) throw new CheckFailure(`${error.expected}, for ${label}`, error.observed);
    throw error;
  }
}

/**
 * Sends every request at once and waits for all of them. A request without a usable answer
 * fails the check: each was answered when sent alone.
 */
async function together(t: CheckContext, sends: ReadonlyArray<() => Promise<Reply>>, what: string): Promise<Reply[]> {
  // One overlap group: the recording marks them sent together, so that replay sends them together too.
  const settled = await Promise.allSettled(sendTogether(sends));
  const lost = settled.flatMap((outcome, index) => (outcome.status === 'rejected' ? [{ index, reason: outcome.reason as unknown }] : []));
  for (const { reason } of lost) if (!(reason instanceof TransportError)) throw reason;
  if (lost.length > 0) {
    const { index, reason } = lost[0]!;
    t.fail(
      `an answer to each of ${sends.length} requests ${what}, as each had alone`,
      `${lost.length} without a usable response, e.g. request ${index + 1}: ${(reason as TransportError).message}`,
    );
  }
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<Reply>).value);
}

const roundLabel = (count: number, round: number) => `sent together with ${count - 1} others (round ${round} of ${ROUNDS})`;

/**
 * Each request alone, judged; then all of them together, ROUNDS times, each reply judged the
 * same way, and `afterRound` given the replies of each round (rules across requests: distinct ids).
 */
async function aloneThenTogether(t: CheckContext, planned: readonly Planned[], afterRound?: (replies: Reply[], what: string) => void): Promise<void> {
  for (const request of planned) {
    const reply = await request.send(0);
    judgedAs(`${request.label}, sent alone`, () => request.judge(reply, 0));
  }
  await t.alone();
  for (let round = 1; round <= ROUNDS; round += 1) {
    const what = roundLabel(planned.length, round);
    const replies = await together(
      t,
      planned.map((request) => () => request.send(round)),
      what,
    );
    replies.forEach((reply, index) => judgedAs(`${planned[index]!.label}, ${what}`, () => planned[index]!.judge(reply, round)));
    afterRound?.(replies, what);
  }
}

/** Fails when two requests got the same value (ids handed out per request: request ids, asset ids). */
function expectDistinct(t: CheckContext, values: ReadonlyArray<string | undefined>, what: string, where: string): void {
  const seen = new Map<string, number>();
  values.forEach((value, index) => {
    if (value === undefined) return;
    const earlier = seen.get(value);
    if (earlier !== undefined) t.fail(`a different ${what} for each request ${where}`, `${JSON.stringify(value)} on requests ${earlier + 1} and ${index + 1}`);
    seen.set(value, index);
  });
}

/** A valid decide body whose question and option ids all carry `tag`: what only this request may get back. */
function taggedDecide(context: string, tag: string, questionCount: number): DecideBody {
  const options = { [`billing_${tag}`]: 'Payments, refunds and invoices', [`shipping_${tag}`]: 'Delivery and tracking', [`other_${tag}`]: '' };
  return {
    context,
    questions: Object.fromEntries(Array.from({ length: questionCount }, (_, index) => [`q${index + 1}_${tag}`, choiceQuestion({ ...options })])),
  };
}

/** Contexts that differ from one another, about billing or about shipping. */
function distinctContext(index: number): string {
  return index % 2 === 0
    ? `Order ${1000 + index}: I was charged twice and the payment must be refunded to my card.`
    : `Order ${1000 + index}: my parcel never arrived and tracking shows no delivery since Monday.`;
}

/** A decide of `body` by project A, judged whole (answer-judgement.ts). */
function answeredDecide(label: string, client: ApiClient, body: DecideBody): Planned {
  const questions = sentQuestions(body);
  return { label, send: () => client.decide(body), judge: (reply) => expectAnswered(reply, questions) };
}

/** A short tag that tells this run's ids from another's. */
const runTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The ids a request-id check sends: valid caller ids (seed 2.7), one per request and attempt. */
const callerId = (tag: string, attempt: number, index: number) => `overlap.${tag}:${attempt}-${index}`;

/**
 * Decide `index` of a request-id check: even ones valid, odd ones with an unknown field (400
 * INVALID_REQUEST), so that ids are judged on successes and errors alike. `expectId` judges the
 * X-Request-ID of each reply; expectError holds error.request_id to it (or null, seed 7).
 */
function requestIdDecide(
  t: CheckContext,
  index: number,
  expectId: (header: string, attempt: number) => void,
  headers?: (attempt: number) => Record<string, string>,
): Planned {
  const refused = index % 2 === 1;
  const body = refused ? { ...decideBody(distinctContext(index)), unknown_field: index } : decideBody(distinctContext(index));
  return {
    label: `decide ${index + 1}${refused ? ' (with an unknown field)' : ''}${headers ? ` under a caller id of its own (${JSON.stringify(headers(0))} alone)` : ''}`,
    send: (attempt) => t.a.decide(body, headers?.(attempt)),
    judge(reply, attempt) {
      expectId(expectRequestIdHeader(reply), attempt);
      if (refused) expectError(reply, 400, 'INVALID_REQUEST');
      else expectSuccess(reply, 'for a valid decide body');
    },
  };
}

/** Files of two projects, each different: PNGs of different sizes and text files of different words. */
interface PlannedUpload {
  project: 'a' | 'b';
  bytes: Uint8Array;
  mimeType: 'image/png' | 'text/plain';
}

function plannedUploads(count: number, tag: string): PlannedUpload[] {
  return Array.from({ length: count }, (_, index): PlannedUpload => {
    const project = index % 2 === 0 ? 'a' : 'b';
    return index % 4 < 2
      ? { project, mimeType: 'image/png', bytes: pngImage({ width: 2 + index, height: 3 }) }
      : { project, mimeType: 'text/plain', bytes: textBytes(`${plainTextSample}\nFile ${index + 1} of project ${project.toUpperCase()}, run ${tag}.\n`) };
  });
}

/** What an Asset says about a file that is not true of it: its size, type or sha256. */
function fileDifferences(asset: unknown, file: PlannedUpload): string[] {
  const fields = (asset ?? {}) as Record<string, unknown>;
  return [
    ...(fields.size_bytes !== file.bytes.byteLength ? [`size_bytes ${JSON.stringify(fields.size_bytes)} instead of ${file.bytes.byteLength}`] : []),
    ...(fields.mime_type !== file.mimeType ? [`mime_type ${JSON.stringify(fields.mime_type)} instead of "${file.mimeType}"`] : []),
    ...(sha256EncodingOf(fields.sha256, file.bytes) === undefined ? [`sha256 ${JSON.stringify(fields.sha256)} instead of ${sha256Hex(file.bytes)}`] : []),
  ];
}

/** Seed 4.5: 201 with the Asset of this very file. */
function expectStoredAs(reply: Reply, file: PlannedUpload): void {
  expectStatus(reply, 201, 'with an Asset for a valid upload');
  expectValidBody(reply, 'uploadAsset');
  const differences = fileDifferences(reply.json, file);
  if (differences.length > 0) throw new CheckFailure('the Asset of the file this request uploaded', differences.join('; '));
}

/** An asset a check uploaded, to delete at its end. */
type Uploaded = { project: 'a' | 'b'; id: string };

/** Attempt 0 is the requests sent alone, one after the other; 1 to ROUNDS, the rounds sent together. */
const attemptLabel = (count: number, attempt: number) => (attempt === 0 ? 'sent alone, one after the other' : roundLabel(count, attempt));

function sendAttempt(t: CheckContext, sends: ReadonlyArray<() => Promise<Reply>>, attempt: number): Promise<Reply[]> {
  return attempt === 0 ? sequentially(sends) : together(t, sends, attemptLabel(sends.length, attempt));
}

/** Uploads each file with its project's key (alone or together, by attempt); each reply must be the Asset of its own file. */
async function uploadAttempt(t: CheckContext, files: readonly PlannedUpload[], attempt: number, uploaded: Uploaded[]): Promise<Reply[]> {
  const replies = await sendAttempt(
    t,
    files.map((file) => () => t[file.project].upload(file.bytes, file.mimeType)),
    attempt,
  );
  // Every asset is kept for deletion before any is judged: a failure must not leave assets behind.
  replies.forEach((reply, index) => typeof reply.json?.id === 'string' && uploaded.push({ project: files[index]!.project, id: reply.json.id }));
  replies.forEach((reply, index) => {
    const file = files[index]!;
    judgedAs(`upload ${index + 1} (project ${file.project.toUpperCase()}, ${file.mimeType}), ${attemptLabel(files.length, attempt)}`, () =>
      expectStoredAs(reply, file),
    );
  });
  return replies;
}

/**
 * Uploads --concurrency different files of projects A and B alone, then together in ROUNDS
 * rounds; each upload must answer the Asset of its own file, and `afterAttempt` judges what else
 * the check is about. Every asset uploaded is deleted at the end, whatever happened.
 */
async function uploadsAloneThenTogether(
  t: CheckContext,
  afterAttempt: (files: readonly PlannedUpload[], replies: Reply[], attempt: number, uploaded: readonly Uploaded[]) => void | Promise<void>,
): Promise<void> {
  const files = plannedUploads(t.concurrency, runTag());
  const uploaded: Uploaded[] = [];
  try {
    for (let attempt = 0; attempt <= ROUNDS; attempt += 1) {
      if (attempt === 1) await t.alone();
      await afterAttempt(files, await uploadAttempt(t, files, attempt, uploaded), attempt, uploaded);
    }
  } finally {
    await deleteAll(t, uploaded);
  }
}

/**
 * Deletes what a check uploaded, whatever happened; failures here judge nothing. Sent --concurrency
 * at a time, as cleanup: a few round trips instead of one per asset (a server one region away), and
 * left out of the overlap the check reports.
 */
async function deleteAll(t: CheckContext, uploaded: readonly Uploaded[]): Promise<void> {
  await asCleanup(() =>
    inFlight(uploaded, t.concurrency, ({ project, id }) =>
      t[project].deleteAsset(id).then(
        () => undefined,
        () => undefined,
      ),
    ),
  );
}

export const concurrencyChecks: Check[] = area('concurrency', [
  {
    id: 'CONCURRENT-CALLER-REQUEST-IDS',
    level: 'MUST',
    seedSections: ['2.7', '7'],
    title:
      'Requests sent together, each with its own caller X-Request-ID, each get their own back, in the header and in error.request_id (half of them refused for an unknown field)',
    async run(t) {
      const tag = runTag();
      const planned = Array.from({ length: t.concurrency }, (_, index) => {
        const expectOwn = (header: string, attempt: number) => {
          const own = callerId(tag, attempt, index);
          if (header !== own) throw new CheckFailure(`X-Request-ID ${JSON.stringify(own)}, the caller's own`, JSON.stringify(header));
        };
        return requestIdDecide(t, index, expectOwn, (attempt) => ({ 'x-request-id': callerId(tag, attempt, index) }));
      });
      await aloneThenTogether(t, planned);
    },
  },
  {
    id: 'CONCURRENT-GENERATED-REQUEST-IDS',
    level: 'MUST',
    seedSections: ['2.7', '4.2', '7'],
    title: 'Requests sent together without a caller id each get a distinct generated req_<hex> id (half of them refused, error.request_id the same id)',
    async run(t) {
      const expectGenerated = (header: string) => {
        if (!GENERATED_ID.test(header)) throw new CheckFailure('a generated id of the form req_<hex>', JSON.stringify(header));
      };
      const planned = Array.from({ length: t.concurrency }, (_, index) => requestIdDecide(t, index, expectGenerated));
      await aloneThenTogether(t, planned, (replies, what) =>
        expectDistinct(
          t,
          replies.map((reply) => reply.headers['x-request-id']),
          'generated X-Request-ID',
          what,
        ),
      );
    },
  },
  {
    id: 'CONCURRENT-ANSWERS-SHARED-CONTEXT',
    level: 'MUST',
    seedSections: ['2.1', '2.3', '2.4'],
    title: 'Decides sent together with one context but their own question and option ids each answer exactly their own ids, by every answer rule',
    async run(t) {
      const context = distinctContext(0);
      const planned = Array.from({ length: t.concurrency }, (_, index) =>
        answeredDecide(`decide ${index + 1} (ids tagged r${index})`, t.a, taggedDecide(context, `r${index}`, 1 + (index % 3))),
      );
      await aloneThenTogether(t, planned);
    },
  },
  {
    id: 'CONCURRENT-ANSWERS-SHARED-QUESTIONS',
    level: 'MUST',
    seedSections: ['2.1', '2.3', '2.4'],
    title: 'Decides sent together with the same questions but different contexts each answer exactly the ids sent, by every answer rule',
    async run(t) {
      const questions = taggedDecide('', 'shared', 2).questions;
      const planned = Array.from({ length: t.concurrency }, (_, index) =>
        answeredDecide(`decide ${index + 1} (context "${distinctContext(index)}")`, t.a, { context: distinctContext(index), questions }),
      );
      await aloneThenTogether(t, planned);
    },
  },
  {
    id: 'CONCURRENT-NO-ERRORS',
    level: 'MUST',
    seedSections: ['2.4', '4.1'],
    title: 'A valid decide answered alone is answered (2xx) when sent together with copies of itself: no 5xx or dropped connection under overlap',
    async run(t) {
      const body = decideBody();
      const planned = Array.from({ length: t.concurrency }, (_, index) => answeredDecide(`copy ${index + 1} of a valid decide`, t.a, body));
      await aloneThenTogether(t, planned);
    },
  },
  {
    id: 'CONCURRENT-UPLOAD-IDS-DISTINCT',
    level: 'MUST',
    seedSections: ['2.5', '4.5'],
    title: 'Uploads of different files sent together by projects A and B get distinct asset ids, each with the size, type and sha256 of its own file',
    requires: TWO_PROJECTS,
    async run(t) {
      await uploadsAloneThenTogether(t, (_files, replies, attempt, uploaded) => {
        if (attempt > 0)
          expectDistinct(
            t,
            replies.map((reply) => reply.json?.id),
            'asset id',
            attemptLabel(replies.length, attempt),
          );
        if (attempt === ROUNDS)
          expectDistinct(
            t,
            uploaded.map(({ id }) => id),
            'asset id',
            'across every upload of the check',
          );
      });
    },
  },
  {
    id: 'CONCURRENT-UPLOAD-READ-OWN',
    level: 'MUST',
    seedSections: ['2.5', '4.6'],
    title: 'Files uploaded together by projects A and B, read back together by their owners: each GET gives the Asset of its own file',
    requires: TWO_PROJECTS,
    async run(t) {
      await uploadsAloneThenTogether(t, async (files, uploads, attempt) => {
        const what = attemptLabel(files.length, attempt);
        const stored = uploads.map((reply) => reply.json as Asset);
        const replies = await sendAttempt(
          t,
          stored.map((asset, index) => () => t[files[index]!.project].getAsset(asset.id)),
          attempt,
        );
        replies.forEach((reply, index) =>
          judgedAs(`the owner's GET /v1/assets/${stored[index]!.id}, ${what}`, () => {
            expectSuccess(reply, 'for the owner reading its asset');
            expectValidBody(reply, 'getAsset');
            // The upload's answer was judged against the file already (expectStoredAs): the GET must give that answer.
            const differences = assetDifferences(stored[index]!, reply.json);
            if (differences.length > 0) throw new CheckFailure('the Asset of the file this project uploaded, as the upload answered', differences.join('; '));
          }),
        );
      });
    },
  },
  {
    id: 'CONCURRENT-ISOLATION',
    level: 'MUST',
    seedSections: ['2.5', '3', '5'],
    title: "Reads sent together by projects A and B: each owner reads its asset, and each gets 403 ASSET_FORBIDDEN for the other's, in both directions",
    requires: TWO_PROJECTS,
    async run(t) {
      const own = {
        a: await uploadSample(t.a, 'image/png', pngImage({ width: 7, height: 2 })),
        b: await uploadSample(t.b, 'image/png', pngImage({ width: 2, height: 7 })),
      };
      try {
        const read = (reader: 'a' | 'b', owner: 'a' | 'b'): Planned => {
          const asset = own[owner].asset;
          return {
            label: `project ${reader.toUpperCase()} reading project ${owner.toUpperCase()}'s ${asset.id}`,
            send: () => t[reader].getAsset(asset.id),
            judge(reply) {
              if (reader !== owner) return expectError(reply, 403, 'ASSET_FORBIDDEN', 'getAsset');
              expectSuccess(reply, 'for the owner reading its asset');
              const differences = assetDifferences(asset, reply.json);
              if (differences.length > 0) throw new CheckFailure('the Asset the owner uploaded', differences.join('; '));
            },
          };
        };
        const pattern = [read('a', 'a'), read('b', 'a'), read('b', 'b'), read('a', 'b')];
        // The owners' reads come first alone: each refusal is then the owner's passing request with the key changed.
        await aloneThenTogether(
          t,
          Array.from({ length: Math.max(t.concurrency, pattern.length) }, (_, index) => pattern[index % pattern.length]!),
        );
      } finally {
        await deleteAll(t, [
          { project: 'a', id: own.a.asset.id },
          { project: 'b', id: own.b.asset.id },
        ]);
      }
    },
  },
  {
    id: 'CONCURRENT-DECIDE-WHILE-DELETING',
    level: 'MUST',
    seedSections: ['2.2', '3', '4.7', '7'],
    bounds: ['asset-after-delete'],
    title:
      "Decides referencing an asset sent together with its deletion: each is answered, or refused with a 4xx in the error body; never a 5xx, never another asset's metadata",
    requires: ASSETS_IN_DECISIONS,
    async run(t) {
      const decoy = await uploadSample(t.a, 'image/png', pngImage({ width: 9, height: 9 }));
      const questions = sentQuestions(decideBody());
      const uploaded = [{ project: 'a' as const, id: decoy.asset.id }];
      try {
        // Each round's asset is uploaded, and a decide referencing it answered, before the bursts.
        const assets: Asset[] = [];
        for (let round = 1; round <= ROUNDS; round += 1) {
          const { asset } = await uploadSample(t.a, 'image/png', pngImage({ width: 3 + round, height: 5 }));
          uploaded.push({ project: 'a', id: asset.id });
          assets.push(asset);
          const alone = await decideReferencing(t.a, asset.id, 'image');
          judgedAs(`a decide referencing ${asset.id}, sent alone before its deletion`, () => expectAnswered(alone, questions));
        }
        await t.alone();
        for (const [index, asset] of assets.entries()) {
          const round = index + 1;
          const deleteAt = Math.floor(t.concurrency / 2);
          const sends = Array.from({ length: t.concurrency }, (_, index) =>
            index === deleteAt ? () => t.a.deleteAsset(asset.id) : () => decideReferencing(t.a, asset.id, 'image'),
          );
          const what = roundLabel(sends.length, round);
          const replies = await together(t, sends, what);
          replies.forEach((reply, index) => {
            const label = index === deleteAt ? `DELETE /v1/assets/${asset.id}, ${what}` : `a decide referencing ${asset.id}, ${what}`;
            judgedAs(label, () => {
              const elsewhere = [decoy.asset.id, decoy.asset.sha256].find((value) => reply.text.includes(value));
              if (elsewhere !== undefined)
                throw new CheckFailure(
                  `nothing of another asset (${decoy.asset.id})`,
                  `its ${elsewhere === decoy.asset.id ? 'id' : 'sha256'} in ${describeReply(reply)}`,
                );
              if (index === deleteAt) {
                expectSuccess(reply, 'for the owner deleting its asset');
                expectValidBody(reply, 'deleteAsset');
                if (reply.json.id !== asset.id) throw new CheckFailure(`id ${asset.id}, the deleted asset`, `id ${JSON.stringify(reply.json.id)}`);
              } else if (isSuccess(reply)) expectAnswered(reply, questions);
              else if (reply.status >= 400 && reply.status < 500) expectErrorBody(reply);
              else
                throw new CheckFailure('an answer, or a 4xx in the error body once the asset is deleted (open point asset-after-delete)', describeReply(reply));
            });
          });
        }
      } finally {
        await deleteAll(t, uploaded);
      }
    },
  },
  {
    id: 'CONCURRENT-DETERMINISM',
    level: 'OBSERVE',
    seedSections: ['2.4'],
    openPoint: 'answers-among-others',
    title: 'Whether a decide sent among others gets the answers it got alone (the seed does not require equal probabilities)',
    // Its answers alone are what the others' are compared with: sent among other checks' requests,
    // a batching server could answer them differently already.
    startsAmongOthers: false,
    async run(t) {
      const body = decideBody();
      const alone = [canonical((await t.a.decide(body)).json?.answers), canonical((await t.a.decide(body)).json?.answers)];
      const differing: string[] = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        const others = Array.from({ length: t.concurrency - 1 }, (_, index) => () => t.a.decide(decideBody(distinctContext(index + 1))));
        const [among] = await together(t, [() => t.a.decide(body), ...others], roundLabel(t.concurrency, round));
        const answers = canonical(among!.json?.answers);
        if (answers !== alone[0]) differing.push(`round ${round}: ${answers.slice(0, 160)}`);
      }
      const steadyAlone = alone[0] === alone[1];
      t.observe({
        matchesReference: differing.length === 0,
        summary:
          (differing.length === 0
            ? `the same answers alone and among ${t.concurrency - 1} others in all ${ROUNDS} rounds`
            : `answers among others differed from those alone in ${differing.length} of ${ROUNDS} rounds (alone: ${alone[0]!.slice(0, 160)}; ${differing[0]})`) +
          (steadyAlone ? '' : '; the request sent alone twice got different answers already'),
      });
    },
  },
  // Each check sends its requests alone among the other checks' and its bursts alone (t.alone()).
]).map((check) => ({ ...check, concurrent: true, startsAmongOthers: check.startsAmongOthers ?? true }));

/** Sends one request after the other (the alone step of checks that read what they sent together). */
async function sequentially(sends: ReadonlyArray<() => Promise<Reply>>): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (const send of sends) replies.push(await send());
  return replies;
}
