// mixed: the traffic of a typical integration. Most calls decide; some upload a document and
// decide on it; some report feedback on a decision they just got; a few list models or probe
// health. The mix is a fixed cycle over the iteration index, so every runner sends the same.
import { runId, SUCCESS, decideRequest, jsonBody, jsonHeaders, setting, target, thresholds, vusFor } from './common.js';

/** One cycle of 20 iterations: 12 decide, 3 asset + decide, 2 decide + feedback, 2 models, 1 health. */
export const MIX_CYCLE = [
  'decide', 'decide', 'asset', 'decide', 'models', 'decide', 'feedback', 'decide', 'decide', 'health',
  'decide', 'asset', 'decide', 'decide', 'feedback', 'models', 'decide', 'decide', 'asset', 'decide',
];

const DOCUMENT_TEXT = 'Order 1182\nCustomer: charged twice on 3 March.\nRequested: refund of the second payment to the card.\n';

/** @returns {import('./common.js').ScenarioDefinition} */
export function scenario(/** @type {import('./common.js').Settings} */ env) {
  const { apiKey } = target(env);
  const run = runId(env);
  const rate = setting(env, 'RATE', 10);
  const durationS = setting(env, 'DURATION', 20);
  const auth = { authorization: `Bearer ${apiKey}` };
  return {
    name: 'mixed',
    description: `${rate} iterations/s for ${durationS} s in a cycle of ${MIX_CYCLE.length}: decide, upload + decide on the document, decide + feedback, models, health`,
    executor: { executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration: `${durationS}s`, preAllocatedVUs: vusFor(rate), maxVUs: vusFor(rate) * 4 },
    thresholds: thresholds(env, { p95Ms: 300, p99Ms: 600, errorRate: 0.01, checkRate: 0.99 }),
    requestNames: ['decide', 'upload_asset', 'decide_on_asset', 'feedback', 'models', 'health'],
    timelineWindowS: setting(env, 'WINDOW_S', Math.max(1, Math.ceil(durationS / 20))),
    async iteration(index, io) {
      const kind = MIX_CYCLE[index % MIX_CYCLE.length];
      const id = `load.mixed.${run}.${index}`;
      if (kind === 'models') {
        await io.send({ name: 'models', method: 'GET', path: '/v1/models', headers: { ...auth, 'x-request-id': id }, expect: { status: SUCCESS } });
      } else if (kind === 'health') {
        await io.send({ name: 'health', method: 'GET', path: '/health', headers: { 'x-request-id': id }, expect: { status: SUCCESS } });
      } else if (kind === 'asset') {
        const upload = await io.send({
          name: 'upload_asset',
          method: 'POST',
          path: '/v1/assets',
          headers: { ...auth, 'content-type': 'text/plain', 'x-request-id': `${id}.upload` },
          body: DOCUMENT_TEXT,
          expect: { status: [201], json: ['id', 'object', 'mime_type', 'size_bytes', 'sha256', 'created_at', 'expires_at'] },
        });
        const asset = jsonBody(upload);
        if (!asset || typeof asset.id !== 'string') return;
        const body = {
          context: [
            { type: 'text', text: 'Read the attached note and classify the request.' },
            { type: 'document', asset_id: asset.id },
          ],
          questions: { topic: { type: 'choice', options: { billing: 'Payments and refunds', shipping: 'Delivery' } } },
        };
        await io.send({ name: 'decide_on_asset', method: 'POST', path: '/v1/decide', headers: jsonHeaders(apiKey, `${id}.decide`), body: JSON.stringify(body), expect: { status: SUCCESS, json: ['model', 'answers', 'usage'] } });
      } else {
        const decision = await io.send(decideRequest({ apiKey, requestId: `load.mixed.${run}.${index}`, index, contextChars: 200, questionCount: 1 + (index % 4) }));
        if (kind !== 'feedback' || !SUCCESS.includes(decision.status)) return;
        // Feedback is linked to the decision by the request id the server kept (seed 4.2).
        const requestId = decision.headers['x-request-id'];
        const answers = /** @type {Record<string, { correct: boolean }>} */ ({});
        for (const questionId of Object.keys(jsonBody(decision)?.answers ?? {})) answers[questionId] = { correct: index % 3 !== 0 };
        await io.send({
          name: 'feedback',
          method: 'POST',
          path: '/v1/feedback',
          headers: jsonHeaders(apiKey, `${id}.feedback`),
          body: JSON.stringify({ request_id: requestId, answers }),
          expect: { status: SUCCESS },
        });
      }
    },
  };
}
