// mixed: the traffic of a typical integration. Most calls decide; some upload a document and
// decide on it; some report feedback on a decision they just got; a few list models or probe
// health. The mix is a fixed cycle over the iteration index, so every runner sends the same.
import {
  capabilities,
  choiceQuestion,
  cycled,
  FEEDBACK_SHAPES,
  NO_FEEDBACK,
  REFERENCE_FEEDBACK_SHAPE,
  decideRequest,
  jsonBody,
  jsonHeaders,
  mediaPart,
  questionTypes,
  referenceFeedbackBody,
  runId,
  setting,
  target,
  textPart,
  thresholds,
  vusFor,
} from './common.js';

/** One cycle of 20 iterations: 12 decide, 3 asset + decide, 2 decide + feedback, 2 models, 1 health. */
/** @type {readonly [string, ...string[]]} */
export const MIX_CYCLE = [
  'decide',
  'decide',
  'asset',
  'decide',
  'models',
  'decide',
  'feedback',
  'decide',
  'decide',
  'health',
  'decide',
  'asset',
  'decide',
  'decide',
  'feedback',
  'models',
  'decide',
  'decide',
  'asset',
  'decide',
];

const DOCUMENT_TEXT = 'Order 1182\nCustomer: charged twice on 3 March.\nRequested: refund of the second payment to the card.\n';

/** @returns {import('./common.js').ScenarioDefinition} */
export function scenario(/** @type {import('./common.js').Settings} */ env) {
  const { apiKey } = target(env);
  const run = runId(env);
  const rate = setting(env, 'RATE', 10);
  const durationS = setting(env, 'DURATION', 20);
  const types = questionTypes(env);
  const claimed = capabilities(env);
  const feedbackShape = env.FEEDBACK_SHAPE ?? REFERENCE_FEEDBACK_SHAPE;
  if (!FEEDBACK_SHAPES.includes(feedbackShape)) throw new Error(`FEEDBACK_SHAPE must be one of ${FEEDBACK_SHAPES.join(', ')}; got "${feedbackShape}"`);
  // Uploads need assets; a decide on the uploaded document needs multimodal inputs too.
  const uploads = claimed.has('assets');
  const decidesOnAssets = uploads && claimed.has('multimodal');
  const auth = { authorization: `Bearer ${apiKey}` };
  const notSent = [
    ...(uploads ? [] : ['uploads (no assets claimed)']),
    ...(uploads && !decidesOnAssets ? ['decides on the uploaded document (no multimodal claimed)'] : []),
    ...(feedbackShape === NO_FEEDBACK ? ['feedback (FEEDBACK_SHAPE=none)'] : []),
  ];
  return {
    name: 'mixed',
    description: `${rate} iterations/s for ${durationS} s in a cycle of ${MIX_CYCLE.length}: decide, upload + decide on the document, decide + feedback (${feedbackShape} shape), models, health${notSent.length > 0 ? `; not sent: ${notSent.join(', ')}` : ''}`,
    executor: { executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration: `${durationS}s`, preAllocatedVUs: vusFor(rate), maxVUs: vusFor(rate) * 4 },
    thresholds: thresholds(env, { p95Ms: 300, p99Ms: 600, errorRate: 0.01, checkRate: 0.99 }),
    requestNames: ['decide', 'upload_asset', 'decide_on_asset', 'feedback', 'models', 'health'],
    timelineWindowS: setting(env, 'WINDOW_S', Math.max(1, Math.ceil(durationS / 20))),
    async iteration(index, io) {
      const kind = cycled(MIX_CYCLE, index);
      const id = `load.mixed.${run}.${index}`;
      if (kind === 'models') {
        await io.send({ name: 'models', method: 'GET', path: '/v1/models', headers: { ...auth, 'x-request-id': id }, expect: { operation: 'listModels' } });
      } else if (kind === 'health') {
        await io.send({ name: 'health', method: 'GET', path: '/health', headers: { 'x-request-id': id }, expect: { operation: 'getHealth' } });
      } else if (kind === 'asset' && uploads) {
        const upload = await io.send({
          name: 'upload_asset',
          method: 'POST',
          path: '/v1/assets',
          headers: { ...auth, 'content-type': 'text/plain', 'x-request-id': `${id}.upload` },
          body: DOCUMENT_TEXT,
          expect: { operation: 'uploadAsset' },
        });
        const asset = jsonBody(upload);
        if (!decidesOnAssets || !asset || typeof asset.id !== 'string') return;
        const questions = { topic: choiceQuestion({ billing: 'Payments and refunds', shipping: 'Delivery' }) };
        const body = { context: [textPart('Read the attached note and classify the request.'), mediaPart('document', asset.id)], questions };
        await io.send({
          name: 'decide_on_asset',
          method: 'POST',
          path: '/v1/decide',
          headers: jsonHeaders(apiKey, `${id}.decide`),
          body: JSON.stringify(body),
          expect: { operation: 'decide', questions },
        });
      } else {
        const decision = await io.send(decideRequest({ apiKey, requestId: id, index, contextChars: 200, questionCount: 1 + (index % 4), types }));
        if (kind !== 'feedback' || feedbackShape === NO_FEEDBACK || decision.status < 200 || decision.status >= 300) return;
        // Feedback is linked to the decision by the request id the server kept (seed 4.2).
        const answered = Object.keys(jsonBody(decision)?.answers ?? {});
        await io.send({
          name: 'feedback',
          method: 'POST',
          path: '/v1/feedback',
          headers: jsonHeaders(apiKey, `${id}.feedback`),
          body: JSON.stringify(referenceFeedbackBody(decision.headers['x-request-id'] ?? id, answered, index % 3 !== 0)),
          // The body is the reference's shape: a server may refuse it (open point), which is counted apart.
          expect: { operation: 'submitFeedback', openPoint: 'feedback-shape' },
        });
      }
    },
  };
}
