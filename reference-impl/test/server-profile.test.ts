// The two open-point profiles (server/profile.ts): the reference profile answers as the spec's
// reference choices say, the alternate as its alternate choices say, on every point it serves.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { alternateChoice, openPoints, referenceChoice, requestBodyLimitBytes } from '../../spec/index.ts';
import { pngImage } from '../../harness/samples/media.ts';
import { configFrom } from '../server/config.ts';
import { applyAbstentionChoices } from '../server/abstention.ts';
import { profileName, serverProfile, PROFILE_NAMES } from '../server/profile.ts';
import { call, choiceQuestion, startServer, type RunningServer } from './support/server.ts';

const decideBody = { context: 'I was charged twice and want a refund.', questions: { topic: choiceQuestion() } };
const servers: Partial<Record<'reference' | 'alternate', RunningServer>> = {};
beforeAll(async () => {
  for (const profile of PROFILE_NAMES) servers[profile] = await startServer({ profile });
});
afterAll(async () => Promise.all(Object.values(servers).map((server) => server.stop())));

test('the alternate abstention rule: top-1 below 0.5 abstains, ties go to the first option, probabilities stay', () => {
  const questions = { q: { type: 'choice' as const, options: { a: '', b: '', c: '' } } };
  const answerOf = (probabilities: Record<string, number>) => ({
    q: { type: 'choice' as const, choice: null, confidence: 0, probabilities, abstain: true, abstention_status: 'advisory' as const },
  });
  const alternate = serverProfile('alternate');
  expect(applyAbstentionChoices(answerOf({ a: 0.45, b: 0.3, c: 0.25 }), questions, true, alternate).q).toMatchObject({
    abstain: true,
    choice: null,
    abstention_status: 'validated',
    probabilities: { a: 0.45 },
  });
  expect(applyAbstentionChoices(answerOf({ a: 0.25, b: 0.5, c: 0.25 }), questions, false, alternate).q).toMatchObject({
    abstain: false,
    choice: 'b',
    abstention_status: 'advisory',
  });
  // The reference profile leaves the scorer's answer as it is.
  expect(applyAbstentionChoices(answerOf({ a: 0.25, b: 0.5, c: 0.25 }), questions, true, serverProfile('reference')).q).toMatchObject({
    abstain: true,
    choice: null,
    abstention_status: 'advisory',
  });
});

test('a profile is read from the spec: every value of the alternate profile is an alternate choice', () => {
  expect(serverProfile('reference').decideStatus).toBe(referenceChoice('decide-success-status', 'status'));
  expect(serverProfile('alternate').decideStatus).toBe(alternateChoice('decide-success-status', 'status'));
  expect(serverProfile('alternate').replacedCodes).toEqual(alternateChoice('name-only-statuses', 'replaced_codes'));
  expect(profileName(undefined)).toBe('reference');
  expect(profileName('alternate')).toBe('alternate');
  expect(() => profileName('strict')).toThrow(/--profile must be reference or alternate/);
  const profileOf = (argv: string[], env: NodeJS.ProcessEnv) => (configFrom(argv, env) as Exclude<ReturnType<typeof configFrom>, 'help'>).profile;
  expect(profileOf([], {})).toBe('reference');
  expect(profileOf(['--profile', 'alternate'], {})).toBe('alternate');
  expect(profileOf([], { DECISION_PROFILE: 'alternate' })).toBe('alternate');
  expect(profileOf(['--profile', 'reference'], { DECISION_PROFILE: 'alternate' })).toBe('reference');
  const choicesOf = (argv: string[]) => (configFrom(argv, {}) as Exclude<ReturnType<typeof configFrom>, 'help'>).choices;
  expect(choicesOf(['--choice', 'upload-body-limit=alternate', '--choice', 'rate-limits=reference'])).toEqual({
    'upload-body-limit': 'alternate',
    'rate-limits': 'reference',
  });
  expect(() => choicesOf(['--choice', 'upload-body-limit'])).toThrow(/--choice must be <open-point>=reference\|alternate/);
  expect(() => choicesOf(['--choice', 'no-such-point=alternate'])).toThrow(/No open point no-such-point/);
  // An alternate served only alone keeps the reference choice in the alternate profile as a whole.
  expect(serverProfile('alternate').uploadsWithinBodyLimit).toBe(false);
  expect(serverProfile('reference', { 'upload-body-limit': 'alternate' }).uploadsWithinBodyLimit).toBe(true);
  // Every open point the alternate profile claims to serve is one the profile reads.
  const read = [
    'size-units',
    'part-asset-family',
    'upload-media-type-parameters',
    'upload-media-type-case',
    'sha256-encoding',
    'asset-read-after-expiry',
    'decide-success-status',
    'feedback-shape',
    'models-shape',
    'asset-read-delete-status',
    'malformed-asset-id-in-path',
    'asset-after-delete',
    'unknown-route',
    'json-content-type',
    'invalid-caller-request-id',
    'error-request-id-null',
    'name-only-statuses',
    'upload-body-limit',
    'rate-limits',
    'service-endpoint-bodies',
    'character-counting',
    'noul-instructions-required',
    'asset-ttl',
    'model-selection',
    'id-format-and-count',
    'abstention-threshold',
    'abstention-status-values',
    'answer-shapes',
  ];
  expect(
    openPoints
      .filter((point) => point.alternateChoice.served)
      .map((point) => point.id)
      .sort(),
  ).toEqual([...read].sort());
});

describe.each(PROFILE_NAMES)('the %s profile', (profile) => {
  const choice = (id: string, field: string) => (profile === 'reference' ? referenceChoice(id, field) : alternateChoice(id, field));
  const server = () => servers[profile]!;

  test('decide answers with the success status of its choice', async () => {
    expect((await call(server(), 'POST', '/v1/decide', { body: decideBody })).status).toBe(choice('decide-success-status', 'status'));
  });

  test('a JSON body sent as text/plain is refused (reference) or read as JSON (alternate)', async () => {
    const reply = await call(server(), 'POST', '/v1/decide', { raw: JSON.stringify(decideBody), contentType: 'text/plain' });
    if (profile === 'reference') expect([reply.status, reply.json.error.code]).toEqual([415, 'UNSUPPORTED_MIME_TYPE']);
    else expect([reply.status, Object.keys(reply.json.answers)]).toEqual([201, ['topic']]);
    // Other types stay refused in both: the alternate accepts text/plain only.
    expect((await call(server(), 'POST', '/v1/decide', { raw: JSON.stringify(decideBody), contentType: 'application/xml' })).status).toBe(415);
  });

  test('an invalid caller request id is never echoed: replaced (reference) or refused with 400 (alternate)', async () => {
    const reply = await call(server(), 'POST', '/v1/decide', { body: decideBody, headers: { 'x-request-id': 'has spaces' } });
    expect(reply.headers['x-request-id']).toMatch(/^req_[0-9a-f]+$/);
    if (profile === 'reference') expect(reply.status).toBe(200);
    else expect([reply.status, reply.json.error.code, reply.json.error.request_id]).toEqual([400, 'INVALID_REQUEST', reply.headers['x-request-id']]);
  });

  test('an unknown route answers its choice, with request_id null in the alternate', async () => {
    const reply = await call(server(), 'GET', '/v1/no-such-route');
    expect([reply.status, reply.json.error.code]).toEqual([choice('unknown-route', 'status'), choice('unknown-route', 'code')]);
    expect(reply.headers['x-request-id']).toMatch(/^req_[0-9a-f]+$/);
    expect(reply.json.error.request_id).toBe(profile === 'reference' ? reply.headers['x-request-id'] : null);
  });

  test('an empty options object is INVALID_OPTIONS (reference) or INVALID_REQUEST (alternate)', async () => {
    const reply = await call(server(), 'POST', '/v1/decide', { body: { ...decideBody, questions: { topic: choiceQuestion({}) } } });
    expect([reply.status, reply.json.error.code]).toEqual(profile === 'reference' ? [400, 'INVALID_OPTIONS'] : [400, 'INVALID_REQUEST']);
  });

  test('models and feedback answer in the shape and status of their choice', async () => {
    const models = await call(server(), 'GET', '/v1/models');
    expect(models.status).toBe(choice('models-shape', 'status'));
    expect(Object.keys(models.json)).toEqual(profile === 'reference' ? ['object', 'data'] : ['models']);
    expect(models.text).toContain('"svc-one-v0.3"');
    const decided = await call(server(), 'POST', '/v1/decide', { body: decideBody });
    const feedback = await call(server(), 'POST', '/v1/feedback', {
      body: { request_id: decided.headers['x-request-id'], answers: { topic: { correct: true } } },
    });
    expect(feedback.status).toBe(choice('feedback-shape', 'status'));
  });

  test('assets: read and delete statuses, a malformed id, and a deleted asset answer their choices', async () => {
    const uploaded = await call(server(), 'POST', '/v1/assets', { raw: pngImage(), contentType: 'image/png' });
    expect(uploaded.status).toBe(201);
    // Between the decimal and the binary reading of 10 MB: over the limit in one profile only.
    const between = await call(server(), 'POST', '/v1/assets', { raw: pngImage({ totalBytes: 10_200_000 }), contentType: 'image/png' });
    expect(between.status).toBe(choice('size-units', 'image_max_bytes') === 10_000_000 ? 413 : 201);
    const withParameters = await call(server(), 'POST', '/v1/assets', { raw: 'Order 1234 arrived damaged.', contentType: 'text/plain; charset=utf-8' });
    expect(withParameters.status).toBe(profile === 'reference' ? 201 : 415);
    const upperCase = await call(server(), 'POST', '/v1/assets', { raw: pngImage(), contentType: 'IMAGE/PNG' });
    expect([upperCase.status, upperCase.json.mime_type ?? upperCase.json.error.code]).toEqual(
      profile === 'reference' ? [201, 'image/png'] : [415, 'UNSUPPORTED_MIME_TYPE'],
    );
    const familyMismatch = await call(server(), 'POST', '/v1/decide', {
      body: { context: [{ type: 'audio', asset_id: uploaded.json.id }], questions: decideBody.questions },
    });
    expect([familyMismatch.status, familyMismatch.json.error.code]).toEqual([choice('part-asset-family', 'status'), choice('part-asset-family', 'code')]);
    expect(uploaded.json.sha256).toMatch(new RegExp(String(choice('sha256-encoding', 'pattern'))));
    const path = `/v1/assets/${uploaded.json.id}`;
    expect((await call(server(), 'GET', path)).json.sha256).toBe(uploaded.json.sha256);
    expect((await call(server(), 'GET', path)).status).toBe(choice('asset-read-delete-status', 'get_status'));
    const deleted = await call(server(), 'DELETE', path);
    expect([deleted.status, deleted.json.deleted]).toEqual([choice('asset-read-delete-status', 'delete_status'), true]);
    const again = await call(server(), 'GET', path);
    expect([again.status, again.json.error.code]).toEqual([choice('asset-after-delete', 'status'), choice('asset-after-delete', 'code')]);
    const referenced = await call(server(), 'POST', '/v1/decide', {
      body: { context: [{ type: 'image', asset_id: uploaded.json.id }], questions: decideBody.questions },
    });
    expect(referenced.json.error.code).toBe(choice('asset-after-delete', 'code'));
    const malformed = await call(server(), 'GET', '/v1/assets/not-an-asset');
    expect([malformed.status, malformed.json.error.code]).toEqual([
      choice('malformed-asset-id-in-path', 'status'),
      choice('malformed-asset-id-in-path', 'code'),
    ]);
  });

  test('an upload over 256 KiB within its family limit is stored; chosen alone, the alternate upload-body-limit refuses it with 413 ASSET_TOO_LARGE', async () => {
    const overBodyLimit = 'a'.repeat(requestBodyLimitBytes + 1);
    // Served alone: in the alternate profile as a whole it would hide the mebibyte reading of size-units.
    expect((await call(server(), 'POST', '/v1/assets', { raw: overBodyLimit, contentType: 'text/plain' })).status).toBe(201);
    const capped = await startServer({ profile, choices: { 'upload-body-limit': 'alternate' } });
    try {
      const refused = await call(capped, 'POST', '/v1/assets', { raw: overBodyLimit, contentType: 'text/plain' });
      expect([refused.status, refused.json.error.code, refused.json.error.request_id]).toEqual([413, 'ASSET_TOO_LARGE', refused.headers['x-request-id']]);
      expect((await call(capped, 'POST', '/v1/assets', { raw: 'a'.repeat(requestBodyLimitBytes), contentType: 'text/plain' })).status).toBe(201);
      // Other bodies keep their limit and code.
      const decide = await call(capped, 'POST', '/v1/decide', { body: { ...decideBody, context: 'a'.repeat(requestBodyLimitBytes) } });
      expect([decide.status, decide.json.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    } finally {
      await capped.stop();
    }
  });

  test('a key over its rate is 429 RATE_LIMITED with Retry-After (reference) or never limited (alternate)', async () => {
    const limited = await startServer({ profile, rateLimit: { perSecond: 0.001, burst: 2 } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await call(limited, 'GET', '/v1/models')).status);
      const last = await call(limited, 'GET', '/v1/models');
      if (profile === 'reference')
        expect([statuses, last.json.error.code, last.headers['retry-after']]).toEqual([
          [200, 200, 429],
          'RATE_LIMITED',
          expect.stringMatching(/^[1-9][0-9]*$/),
        ]);
      else expect([...statuses, last.status]).toEqual([200, 200, 200, 200]);
    } finally {
      await limited.stop();
    }
  });

  test('GET /health answers 200 with the body of its choice', async () => {
    const reply = await call(server(), 'GET', '/health', { key: null });
    expect([reply.status, reply.json]).toEqual([200, choice('service-endpoint-bodies', 'health_body')]);
  });

  test('8,000 characters outside the Basic Multilingual Plane: accepted counting code points (reference), refused counting UTF-16 units (alternate)', async () => {
    const astral = '\u{1F600}'.repeat(8000); // 8,000 code points, 16,000 UTF-16 code units
    const asContext = await call(server(), 'POST', '/v1/decide', { body: { ...decideBody, context: astral } });
    const asPart = await call(server(), 'POST', '/v1/decide', { body: { ...decideBody, context: [{ type: 'text', id: 'note', text: astral }] } });
    if (profile === 'reference') expect([asContext.status, asPart.status]).toEqual([200, 200]);
    else {
      expect([asContext.status, asContext.json.error.code, asContext.json.error.message]).toEqual([400, 'INVALID_REQUEST', expect.stringContaining('UTF-16')]);
      expect([asPart.status, asPart.json.error.code, asPart.json.error.message]).toEqual([400, 'INVALID_REQUEST', expect.stringContaining('(id "note")')]);
    }
    // 8,000 Basic Multilingual Plane characters are within the limit under either count; 8,001 over it.
    expect((await call(server(), 'POST', '/v1/decide', { body: { ...decideBody, context: 'é'.repeat(8000) } })).status).toBe(
      choice('decide-success-status', 'status'),
    );
    expect((await call(server(), 'POST', '/v1/decide', { body: { ...decideBody, context: 'é'.repeat(8001) } })).status).toBe(400);
    const halfAstral = await call(server(), 'POST', '/v1/decide', { body: { ...decideBody, context: '\u{1F600}'.repeat(4000) } });
    expect(halfAstral.status).toBe(choice('decide-success-status', 'status'));
  });

  test('a noul question without instructions is refused (reference) or answered from its id (alternate)', async () => {
    const questions = { wants_refund: { type: 'noul' } };
    const reply = await call(server(), 'POST', '/v1/decide', { body: { context: decideBody.context, questions } });
    if (profile === 'reference') expect([reply.status, reply.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
    else {
      const spelled = await call(server(), 'POST', '/v1/decide', {
        body: { context: decideBody.context, questions: { wants_refund: { type: 'noul', instructions: 'wants refund' } } },
      });
      expect(reply.status).toBe(201);
      // The default text is the id read as words: the same answer as those words sent as instructions.
      expect(reply.json.answers).toEqual(spelled.json.answers);
    }
  });

  test('an X-Asset-TTL upload header is ignored (reference) or shortens the lifetime, refused when not 1 to 86400 seconds (alternate)', async () => {
    const upload = (ttl: string) => call(server(), 'POST', '/v1/assets', { raw: pngImage(), contentType: 'image/png', headers: { 'x-asset-ttl': ttl } });
    const lifetimeOf = (asset: { created_at: string; expires_at: string }) => Date.parse(asset.expires_at) - Date.parse(asset.created_at);
    const hour = await upload('3600');
    expect([hour.status, lifetimeOf(hour.json)]).toEqual([201, profile === 'reference' ? 24 * 3600_000 : 3600_000]);
    for (const invalid of ['0', '86401', '1.5', '-5', 'soon']) {
      const reply = await upload(invalid);
      if (profile === 'reference') expect([invalid, reply.status]).toEqual([invalid, 201]);
      else expect([invalid, reply.status, reply.json.error.code]).toEqual([invalid, 400, 'INVALID_REQUEST']);
    }
    const day = await upload('86400');
    expect([day.status, lifetimeOf(day.json)]).toEqual([201, 24 * 3600_000]);
  });

  test('a model field is an unknown field (reference) or names svc-one-v1 or an alias (alternate)', async () => {
    for (const model of ['svc-one-v1', 'svc-one-v0', 'svc-one-v0.3']) {
      const reply = await call(server(), 'POST', '/v1/decide', { body: { ...decideBody, model } });
      if (profile === 'reference') expect([model, reply.status, reply.json.error.code]).toEqual([model, 400, 'INVALID_REQUEST']);
      else expect([model, reply.status, reply.json.model]).toEqual([model, 201, 'svc-one-v1']);
    }
    for (const model of ['svc-one-v2', 'SVC-ONE-V1', 7, null]) {
      const reply = await call(server(), 'POST', '/v1/decide', { body: { ...decideBody, model } });
      expect([model, reply.status, reply.json.error.code]).toEqual([model, 400, 'INVALID_REQUEST']);
    }
    // Other unknown fields stay refused in both.
    expect((await call(server(), 'POST', '/v1/decide', { body: { ...decideBody, model: 'svc-one-v1', temperature: 0 } })).status).toBe(400);
  });

  test('question and option ids: any string echoed (reference) or 1 to 64 of [A-Za-z0-9_-], others 400 (alternate)', async () => {
    const longest = 'q'.repeat(64);
    const within = await call(server(), 'POST', '/v1/decide', {
      body: { context: decideBody.context, questions: { [longest]: choiceQuestion({ 'opt-1_A': '', other: '' }) } },
    });
    expect([within.status, Object.keys(within.json.answers), Object.keys(within.json.answers[longest].probabilities)]).toEqual([
      choice('decide-success-status', 'status'),
      [longest],
      ['opt-1_A', 'other'],
    ]);
    for (const questions of [
      { ['q'.repeat(65)]: choiceQuestion() },
      { 'has space': choiceQuestion() },
      { topic: choiceQuestion({ café: '', other: '' }) },
      { '': choiceQuestion() },
    ]) {
      const reply = await call(server(), 'POST', '/v1/decide', { body: { context: decideBody.context, questions } });
      if (profile === 'reference') expect(reply.status).toBe(200);
      else expect([reply.status, reply.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
    }
  });

  test('abstention: the margin rule and always advisory (reference), top-1 below 0.5 and validated for text-only contexts (alternate)', async () => {
    const questions = {
      four_ways: choiceQuestion({ weather: 'The weather', sports: 'Sports results', cooking: 'Recipes', music: 'Concerts' }),
      topic: choiceQuestion(),
      single: choiceQuestion({ billing: 'Payments' }),
    };
    const uploaded = await call(server(), 'POST', '/v1/assets', { raw: pngImage(), contentType: 'image/png' });
    for (const context of [
      decideBody.context,
      'Hello.',
      [{ type: 'text', text: 'Hello.' }],
      [
        { type: 'text', text: 'What is this?' },
        { type: 'image', asset_id: uploaded.json.id },
      ],
    ]) {
      const reply = await call(server(), 'POST', '/v1/decide', { body: { context, questions } });
      const textOnly = typeof context === 'string' || context.every((part) => part.type === 'text');
      for (const answer of Object.values(reply.json.answers) as any[]) {
        const top = Math.max(...(Object.values(answer.probabilities) as number[]));
        expect(answer.abstention_status).toBe(profile === 'alternate' && textOnly ? 'validated' : 'advisory');
        expect(answer.choice === null).toBe(answer.abstain);
        if (profile === 'alternate') expect(answer.abstain).toBe(top < 0.5);
      }
      if (profile === 'alternate') expect(reply.json.answers.four_ways.abstain).toBe(true); // four unrelated options: none reaches 0.5
    }
  });

  test('noul, multi and score answers in the shapes of their choice', async () => {
    const questions = {
      refund: { type: 'noul', instructions: 'Does the customer ask for a refund?' },
      tags: { type: 'multi', options: { refund: null, delivery: null } },
      urgency: { type: 'score', instructions: 'How urgent is this?' },
      topic: choiceQuestion(),
    };
    const { json } = await call(server(), 'POST', '/v1/decide', { body: { context: decideBody.context, questions } });
    const { refund, tags, urgency, topic } = json.answers;
    expect(Object.keys(topic).sort()).toEqual(['abstain', 'abstention_status', 'choice', 'confidence', 'probabilities', 'type']);
    if (profile === 'reference') {
      expect([Object.keys(refund).sort(), Object.keys(tags).sort(), Object.keys(urgency).sort()]).toEqual([
        ['abstain', 'abstention_status', 'confidence', 'probabilities', 'type', 'verdict'],
        ['probabilities', 'selected', 'threshold', 'type'],
        ['basis', 'score', 'type'],
      ]);
    } else {
      expect([Object.keys(refund), Object.keys(tags), Object.keys(urgency)]).toEqual([
        ['type', 'value', 'confidence'],
        ['type', 'choices'],
        ['type', 'score'],
      ]);
      expect(['yes', 'no', 'unknown']).toContain(refund.value);
      expect(tags.choices.every((id: string) => ['refund', 'delivery'].includes(id))).toBe(true);
      expect(urgency.score).toBeGreaterThanOrEqual(0);
      expect(urgency.score).toBeLessThanOrEqual(100);
    }
  });

  // Last: it moves the server's clock past the default asset lifetime.
  test('an expired asset: referencing it is 410 ASSET_EXPIRED in both; reading it answers the choice', async () => {
    const uploaded = await call(server(), 'POST', '/v1/assets', { raw: pngImage(), contentType: 'image/png' });
    server().advance(25 * 60 * 60 * 1000);
    const referenced = await call(server(), 'POST', '/v1/decide', {
      body: { context: [{ type: 'image', asset_id: uploaded.json.id }], questions: decideBody.questions },
    });
    expect([referenced.status, referenced.json.error.code]).toEqual([410, 'ASSET_EXPIRED']);
    const read = await call(server(), 'GET', `/v1/assets/${uploaded.json.id}`);
    expect([read.status, read.json.error.code]).toEqual([choice('asset-read-after-expiry', 'status'), choice('asset-read-after-expiry', 'code')]);
  });
});
