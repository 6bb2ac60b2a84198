// The coverage phase's checks: for every operation of the spec, one MUST check that sends the
// cases whose answer the seed states (a refusal of what it rules out, an answer to what it
// allows) and one OBSERVE check that sends the cases inside open points and reports what the
// server chose. Each case changes one thing of a request that just passed; the cases of a check
// are sent together, up to --workers at a time, as they share no state. The response rules judge every
// exchange as everywhere else; a check fails on the cases whose answer is not what the seed says.
import { ALL_CAPABILITIES, area, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { describeReply, isSuccess } from '../harness/expect.ts';
import { inFlight } from '../harness/in-flight.ts';
import type { Reply } from '../harness/http.ts';
import { jsonRequestSchema, openPoint, operations, requestParameters, schemaNodes, type Operation } from '../spec/index.ts';
import { bodyCases } from './body-cases.ts';
import { describeExpectation, type CoverageCase, type Expectation } from './case.ts';
import { requestCases } from './request-cases.ts';
import { assetHook, NotPrepared, projectAssets, subjectOf, type Assets } from './subjects.ts';

type Level = 'MUST' | 'OBSERVE';

interface Sent {
  testCase: CoverageCase;
  reply?: Reply;
  error?: string;
}

/** Why a reply is not what the expectation says, or undefined when it is. */
export function breachOf(expectation: Expectation, reply: Reply): string | undefined {
  if (expectation.kind === 'observed') return undefined;
  if (expectation.kind === 'answered') return isSuccess(reply) ? undefined : describeReply(reply);
  const code = (reply.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (reply.status < 400 || reply.status >= 500) return describeReply(reply);
  if (expectation.status !== undefined && reply.status !== expectation.status) return describeReply(reply);
  if (expectation.code !== undefined && code !== expectation.code) return describeReply(reply);
  return undefined;
}

/** `status 400 INVALID_REQUEST`: how an outcome is counted in observations. */
function outcomeOf(sent: Sent): string {
  if (!sent.reply) return 'no answer';
  const code = (sent.reply.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? `${sent.reply.status} ${code}` : String(sent.reply.status);
}

/** The cases of one operation at one level, with their passing requests and what could not be tried. */
async function casesOf(t: CheckContext, op: Operation, level: Level, assets: Assets) {
  const prepared = subjectOf(t, op.operationId, assets);
  if (typeof prepared === 'string') t.skip(prepared);
  const subject = prepared;
  const generated = [requestCases(subject.base)];
  if (subject.body) {
    const hook = await assetHook(t, assets, op.operationId);
    generated.push(
      bodyCases({ operation: op.operationId, root: subject.body.root, hook, claims: t.target.capabilities, request: subject.body.request }, ALL_CAPABILITIES),
    );
  }
  const atLevel = (testCase: CoverageCase) => (testCase.expectation.kind === 'observed') === (level === 'OBSERVE');
  const cases = generated.flatMap((part) => part.cases).filter(atLevel);
  const bases = generated.flatMap((part) => part.bases).filter((base) => cases.some((testCase) => testCase.base === base.key));
  return { bases, cases, untestable: generated.flatMap((part) => part.untestable) };
}

async function runOperation(t: CheckContext, op: Operation, level: Level): Promise<void> {
  const assets = projectAssets(t);
  try {
    const { bases, cases, untestable } = await casesOf(t, op, level, assets);
    if (cases.length === 0) t.skip(`no case of ${op.operationId} is ${level === 'MUST' ? 'stated by the seed' : 'inside an open point'}`);
    // Each base first: its cases are sent only if it passed, so that a refusal comes from the one change.
    const passed = new Set<string>();
    const refusedBases: string[] = [];
    for (const base of bases) {
      const reply = await base
        .request()
        .then((request) => t.a.send(request))
        .catch((error: Error) => error);
      if (!(reply instanceof Error) && isSuccess(reply)) passed.add(base.key);
      else refusedBases.push(`${base.key.slice(0, 80)}: ${reply instanceof Error ? reply.message : describeReply(reply)}`);
      if (!(reply instanceof Error)) created(reply, assets);
    }
    const sendable = cases.filter((testCase) => passed.has(testCase.base));
    // Answers come in whatever order the server gives them; each is kept at its case's place, so that
    // messages and coverage list them in the order of the cases whatever --workers is.
    const byPlace: Array<Sent | undefined> = [];
    const started = performance.now();
    const most = await inFlight(sendable, t.workers, async (testCase) => {
      const place = sendable.indexOf(testCase);
      try {
        const request = await testCase.prepare();
        const reply = await (testCase.anonymous ? t.anonymous : t.a).send(request);
        created(reply, assets);
        byPlace[place] = { testCase, reply };
      } catch (error) {
        if (error instanceof NotPrepared) byPlace[place] = { testCase, error: error.message };
        else throw error;
      }
    });
    const results = byPlace.filter((sent): sent is Sent => sent !== undefined);
    t.cover(results.flatMap((sent) => sent.testCase.records));
    const negatives = sendable.filter((testCase) => testCase.records.some((record) => record.kind === 'keyword' && record.polarity === 'negative')).length;
    t.note(
      `Sent ${sendable.length} cases (${negatives} with an invalid keyword value) on ${passed.size} passing requests in ${((performance.now() - started) / 1000).toFixed(1)} s, up to ${most} in flight.`,
    );
    if (refusedBases.length > 0) t.note(`Not sent: ${cases.length - sendable.length} cases whose passing request did not pass (${refusedBases.join('; ')}).`);
    t.cover(untestable.map((entry) => ({ kind: 'untestable' as const, ...entry })));
    for (const entry of untestable.slice(0, 5)) t.note(`Not tried: ${entry.what}: ${entry.reason}.`);
    if (untestable.length > 5) t.note(`Not tried: ${untestable.length - 5} more (results.json coverage.untestable).`);
    if (passed.size === 0) t.skip(`no passing request of ${op.operationId} passed: ${refusedBases[0] ?? 'none prepared'}`);
    if (level === 'OBSERVE') return observe(t, results);
    const breaches = results.flatMap(({ testCase, reply, error }) => {
      const breach = reply ? breachOf(testCase.expectation, reply) : error;
      return breach === undefined ? [] : [`${testCase.name}: expected ${describeExpectation(testCase.expectation)}, observed ${breach}`];
    });
    if (breaches.length > 0)
      t.fail(
        `every case answered as the seed says (${results.length} sent)`,
        `${breaches.length} not: ${breaches.slice(0, 6).join('; ')}${breaches.length > 6 ? `; and ${breaches.length - 6} more` : ''}`,
      );
  } finally {
    await assets.cleanup();
  }
}

/** What the server chose inside each open point, counted by outcome. */
function observe(t: CheckContext, results: readonly Sent[]): void {
  const byPoint = new Map<string, Map<string, number>>();
  for (const sent of results) {
    if (sent.testCase.expectation.kind !== 'observed') continue;
    const counts = byPoint.get(sent.testCase.expectation.openPoint) ?? new Map<string, number>();
    counts.set(outcomeOf(sent), (counts.get(outcomeOf(sent)) ?? 0) + 1);
    byPoint.set(sent.testCase.expectation.openPoint, counts);
  }
  const summary = [...byPoint].map(([point, counts]) => `${point}: ${[...counts].map(([outcome, count]) => `${count} × ${outcome}`).join(', ')}`).join('; ');
  t.observe({ summary: `${results.length} cases inside open points answered ${summary}` });
}

/** Uploads a case made are deleted when the check ends; those a case deleted are not deleted again. */
function created(reply: Reply, assets: Assets): void {
  if (!isSuccess(reply) || reply.json?.object !== 'asset' || typeof reply.json.id !== 'string') return;
  if (reply.json.deleted === true) assets.gone(reply.json.id);
  else assets.created(reply.json.id);
}

/**
 * The open points an operation's cases can fall in, from the spec: the body's nodes inside one, its
 * parameters' invalid values, and those of the HTTP dimensions it has. A replay against a server
 * of the other choice labels the OBSERVE check's changes with them (test/keywords.test.ts holds
 * every generated case to this list).
 */
export function openPointsOfCases(op: Operation): string[] {
  const root = jsonRequestSchema(op.operationId);
  const points = [
    ...(root ? schemaNodes(root).flatMap((node) => (node.openPoint ? [node.openPoint] : [])) : []),
    ...requestParameters(op.operationId).flatMap((parameter) => (parameter.invalidValue ? [parameter.invalidValue.openPoint] : [])),
    openPoint('accept-without-json').id,
    ...(op.requestMediaTypes.includes('application/json') ? [openPoint('json-content-type').id] : []),
    ...(op.requestMediaTypes.length > 0 && !op.requestMediaTypes.includes('application/json')
      ? ['upload-media-type-case', 'upload-media-type-parameters', 'upload-body-limit'].map((id) => openPoint(id).id)
      : []),
  ];
  return [...new Set(points)];
}

const idOf = (op: Operation) => `COVERAGE-${op.operationId.replace(/[A-Z]/g, (letter) => `-${letter}`).toUpperCase()}`;

/** Two checks per operation of the spec: what the seed states (MUST), and what it leaves open (OBSERVE). */
export const checks: Check[] = area(
  'coverage',
  operations.flatMap((op) => [
    {
      id: idOf(op),
      level: 'MUST' as const,
      seedSections: op.seedSections,
      title: `${op.method.toUpperCase()} ${op.path}: every request keyword and HTTP dimension, one change at a time, answered as the seed states`,
      ...(op.path.startsWith('/v1/assets') ? { requires: { capabilities: ['assets' as const] } } : {}),
      run: (t: CheckContext) => runOperation(t, op, 'MUST'),
    },
    {
      id: `${idOf(op)}-OPEN`,
      level: 'OBSERVE' as const,
      seedSections: op.seedSections,
      title: `${op.method.toUpperCase()} ${op.path}: the cases inside open points, and what the server chose`,
      openPoints: openPointsOfCases(op),
      ...(op.path.startsWith('/v1/assets') ? { requires: { capabilities: ['assets' as const] } } : {}),
      run: (t: CheckContext) => runOperation(t, op, 'OBSERVE'),
    },
  ]),
);
