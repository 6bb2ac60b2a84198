// Validation of the decide request (seed 2.1 to 2.3, 4.1, 7): unknown fields at every level,
// no url and no inline bytes on media parts, video refused as a modality, required fields,
// types, malformed JSON and malformed asset ids, each answered in the seed's error body.
import { errorCode, referenceChoice } from '../spec/index.ts';
import { area, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { describeReply, expectErrorBody, expectStatus, expectSuccess } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { pngImage } from '../harness/samples/media.ts';
import { BILLING_CONTEXT, choiceQuestion, decideBody, mediaPart, postDecideText, replyOutcome, textPart, withUploadedAssets } from '../harness/requests.ts';

/** 400 INVALID_REQUEST in the seed's error body (seed 7: "Unknown request field; invalid request"). */
export function expectInvalidRequest(reply: Reply, what: string): void {
  expectStatus(reply, 400, `with INVALID_REQUEST for ${what}`);
  expectErrorBody(reply, 'INVALID_REQUEST');
}

/**
 * For malformed options: INVALID_REQUEST (400), or INVALID_OPTIONS, a name-only code whose name
 * fits and whose status the seed does not state (any 4xx).
 */
function expectOptionsRejected(t: CheckContext, reply: Reply, what: string): void {
  if (reply.status < 400 || reply.status >= 500) t.fail(`a 4xx with INVALID_REQUEST or INVALID_OPTIONS for ${what}`, describeReply(reply));
  expectErrorBody(reply, ['INVALID_REQUEST', 'INVALID_OPTIONS']);
  if (reply.json.error.code === 'INVALID_OPTIONS') t.note(`Answered INVALID_OPTIONS (status ${reply.status}), a name-only code, for ${what}.`);
}

/** A decide body whose context is one text part followed by `parts`. */
function partsBody(...parts: Array<Record<string, unknown>>) {
  return decideBody([textPart('Is this receipt a duplicate of the one I sent yesterday?', 'intro'), ...parts]);
}

/** What the server did, set beside an open point's reference status and code. */
function observeOutcome(t: CheckContext, reply: Reply, reference: { status: number; code: string }): void {
  t.observe({ summary: replyOutcome(reply), matchesReference: reply.status === reference.status && reply.json?.error?.code === reference.code });
}

const referenceOf = (code: string) => ({ status: errorCode(code).referenceStatus, code });

export const decideValidationChecks: Check[] = area('decide-validation', [
  {
    id: 'DECIDE-UNKNOWN-FIELD-TOP',
    level: 'MUST',
    seedSections: ['2.1', '4.1', '7'],
    title: 'An unknown top-level field is rejected with 400 INVALID_REQUEST',
    async run(t) {
      expectInvalidRequest(await t.a.decide({ ...decideBody(), priority: 'high' }), 'a top-level field "priority"');
    },
  },
  {
    id: 'DECIDE-UNKNOWN-FIELD-QUESTION',
    level: 'MUST',
    seedSections: ['2.3', '4.1', '7'],
    title: 'An unknown field in a choice question is rejected with 400 INVALID_REQUEST',
    async run(t) {
      expectInvalidRequest(
        await t.a.decide({ context: BILLING_CONTEXT, questions: { topic: { ...choiceQuestion(), weight: 2 } } }),
        'a field "weight" in a choice question',
      );
    },
  },
  {
    id: 'DECIDE-UNKNOWN-FIELD-CHOICE-INSTRUCTIONS',
    level: 'MUST',
    seedSections: ['2.3', '4.1', '7'],
    title: 'A choice question with `instructions` (a field of other question types only) is rejected with 400 INVALID_REQUEST',
    async run(t) {
      const question = { ...choiceQuestion(), instructions: 'Which department should handle this?' };
      expectInvalidRequest(await t.a.decide({ context: BILLING_CONTEXT, questions: { topic: question } }), 'instructions in a choice question');
    },
  },
  {
    id: 'DECIDE-UNKNOWN-FIELD-NOUL-OPTIONS',
    level: 'MUST',
    seedSections: ['2.3', '4.1', '7'],
    title: 'An option-less question (noul) carrying `options` is rejected with 400 INVALID_REQUEST',
    requires: { capabilities: ['noul'] },
    async run(t) {
      const question = { type: 'noul', instructions: 'Does the customer ask for a refund?', options: { yes: '', no: '' } };
      expectInvalidRequest(await t.a.decide({ context: BILLING_CONTEXT, questions: { refund: question } }), 'options in a noul question');
    },
  },
  {
    id: 'DECIDE-UNKNOWN-FIELD-TEXT-PART',
    level: 'MUST',
    seedSections: ['2.2', '7'],
    title: 'An unknown field in a text part is rejected with 400 INVALID_REQUEST',
    requires: { capabilities: ['multimodal'] },
    async run(t) {
      expectInvalidRequest(await t.a.decide(decideBody([{ ...textPart('I was charged twice.', 'intro'), lang: 'en' }])), 'a field "lang" in a text part');
    },
  },
  {
    id: 'DECIDE-UNKNOWN-FIELD-IMAGE-PART',
    level: 'MUST',
    seedSections: ['2.2', '7'],
    title: 'An unknown field in an image part that references a real image is rejected with 400 INVALID_REQUEST',
    requires: { capabilities: ['multimodal', 'assets'] },
    async run(t) {
      await withUploadedAssets(t, 'image', 1, async ([assetId]) => {
        expectInvalidRequest(
          await t.a.decide(partsBody({ ...mediaPart('image', assetId!, 'receipt'), caption: 'The receipt' })),
          'a field "caption" in an image part',
        );
      });
    },
  },
  {
    id: 'DECIDE-PART-URL',
    level: 'MUST',
    seedSections: ['2.2', '7'],
    title: 'A media part with a `url` field is rejected with 400 INVALID_REQUEST (there is no url field)',
    requires: { capabilities: ['multimodal', 'assets'] },
    async run(t) {
      await withUploadedAssets(t, 'image', 1, async ([assetId]) => {
        const part = { ...mediaPart('image', assetId!, 'receipt'), url: 'https://example.org/receipt.png' };
        expectInvalidRequest(await t.a.decide(partsBody(part)), 'a url field in an image part');
      });
    },
  },
  {
    id: 'DECIDE-PART-INLINE-DATA',
    level: 'MUST',
    seedSections: ['2.2', '7'],
    title: 'A media part with inline file bytes (`data`) is rejected with 400 INVALID_REQUEST',
    requires: { capabilities: ['multimodal', 'assets'] },
    async run(t) {
      await withUploadedAssets(t, 'image', 1, async ([assetId]) => {
        const part = { ...mediaPart('image', assetId!, 'receipt'), data: Buffer.from(pngImage()).toString('base64') };
        expectInvalidRequest(await t.a.decide(partsBody(part)), 'inline base64 bytes in an image part');
      });
    },
  },
  {
    id: 'DECIDE-VIDEO-PART',
    level: 'MUST',
    seedSections: ['1', '2.2', '7'],
    title: 'An image part that passes, changed only to type video, is rejected with 400 UNSUPPORTED_MODALITY',
    requires: { capabilities: ['multimodal', 'assets'] },
    async run(t) {
      // A real asset, so that the refusal can only come from the part's type.
      await withUploadedAssets(t, 'image', 1, async ([assetId]) => {
        expectSuccess(await t.a.decide(partsBody(mediaPart('image', assetId!, 'clip'))), 'for the image part the video part is derived from');
        const reply = await t.a.decide(partsBody(mediaPart('video', assetId!, 'clip')));
        expectStatus(reply, 400, 'with UNSUPPORTED_MODALITY for a video part');
        expectErrorBody(reply, 'UNSUPPORTED_MODALITY');
      });
    },
  },
  {
    id: 'DECIDE-UNKNOWN-PART-TYPE',
    level: 'MUST',
    seedSections: ['2.2', '7'],
    title: 'A part of a type the seed does not list (html) is rejected with 400 INVALID_REQUEST',
    requires: { capabilities: ['multimodal'] },
    async run(t) {
      expectInvalidRequest(await t.a.decide(partsBody({ type: 'html', id: 'page', html: '<p>Invoice 1182</p>' })), 'a part of type "html"');
    },
  },
  {
    id: 'DECIDE-UNKNOWN-QUESTION-TYPE',
    level: 'MUST',
    seedSections: ['2.3', '7'],
    title: 'A question of a type the seed does not list (rank) is rejected with 400 INVALID_REQUEST',
    async run(t) {
      const question = { ...choiceQuestion(), type: 'rank' };
      expectInvalidRequest(await t.a.decide({ context: BILLING_CONTEXT, questions: { topic: question } }), 'a question of type "rank"');
    },
  },
  {
    id: 'DECIDE-MISSING-CONTEXT',
    level: 'MUST',
    seedSections: ['2.1', '7'],
    title: 'A body without context is rejected with 400 INVALID_REQUEST',
    async run(t) {
      expectInvalidRequest(await t.a.decide({ questions: { topic: choiceQuestion() } }), 'a body without context');
    },
  },
  {
    id: 'DECIDE-MISSING-QUESTIONS',
    level: 'MUST',
    seedSections: ['2.1', '7'],
    title: 'A body without questions is rejected with 400 INVALID_REQUEST',
    async run(t) {
      expectInvalidRequest(await t.a.decide({ context: BILLING_CONTEXT }), 'a body without questions');
    },
  },
  {
    id: 'DECIDE-TYPE-CONTEXT',
    level: 'MUST',
    seedSections: ['2.1', '7'],
    title: 'A context that is a number is rejected with 400 INVALID_REQUEST',
    async run(t) {
      expectInvalidRequest(await t.a.decide(decideBody(1182)), 'context 1182 (a number)');
    },
  },
  {
    id: 'DECIDE-TYPE-QUESTIONS',
    level: 'MUST',
    seedSections: ['2.1', '7'],
    title: 'Questions sent as an array instead of an object are rejected with 400 INVALID_REQUEST',
    async run(t) {
      expectInvalidRequest(await t.a.decide({ context: BILLING_CONTEXT, questions: [choiceQuestion()] }), 'questions as an array');
    },
  },
  {
    id: 'DECIDE-TYPE-OPTIONS',
    level: 'MUST',
    seedSections: ['2.3', '7'],
    title: 'Choice options sent as a string are rejected (400 INVALID_REQUEST, or INVALID_OPTIONS)',
    async run(t) {
      const reply = await t.a.decide({ context: BILLING_CONTEXT, questions: { topic: { type: 'choice', options: 'billing, shipping' } } });
      expectOptionsRejected(t, reply, 'options as a string');
    },
  },
  {
    id: 'DECIDE-TYPE-CHOICE-DESCRIPTION',
    level: 'MUST',
    seedSections: ['2.3', '7'],
    title: 'A choice option whose description is not a string is rejected (400 INVALID_REQUEST, or INVALID_OPTIONS)',
    async run(t) {
      const reply = await t.a.decide({ context: BILLING_CONTEXT, questions: { topic: { type: 'choice', options: { billing: 1, shipping: 'Delivery' } } } });
      expectOptionsRejected(t, reply, 'an option description 1 (a number)');
    },
  },
  {
    id: 'DECIDE-TYPE-MULTI-VALUE',
    level: 'MUST',
    seedSections: ['2.3', '7'],
    title: 'A multi option whose value is not null is rejected (400 INVALID_REQUEST, or INVALID_OPTIONS)',
    requires: { capabilities: ['multi'] },
    async run(t) {
      const question = { type: 'multi', options: { refund: 'Refund requested', late_delivery: null } };
      expectOptionsRejected(t, await t.a.decide({ context: BILLING_CONTEXT, questions: { issues: question } }), 'a multi option with a description string');
    },
  },
  {
    id: 'DECIDE-MALFORMED-JSON',
    level: 'MUST',
    seedSections: ['4', '4.1', '7'],
    title: 'A body that is not valid JSON is rejected with 400 INVALID_REQUEST',
    async run(t) {
      expectInvalidRequest(await postDecideText(t.a, `{"context": ${JSON.stringify(BILLING_CONTEXT)}, "questions": {`), 'a truncated JSON body');
    },
  },
  {
    id: 'DECIDE-ASSET-ID-PATTERN',
    level: 'MUST',
    seedSections: ['2.2', '7'],
    title: 'An asset_id that does not match ^asset_[A-Za-z0-9_-]{8,64}$ is rejected with 400 INVALID_REQUEST',
    requires: { capabilities: ['multimodal'] },
    async run(t) {
      for (const assetId of ['asset_short', 'receipt.png', `asset_${'a'.repeat(65)}`, 'asset_has space!']) {
        expectInvalidRequest(await t.a.decide(partsBody(mediaPart('image', assetId, 'receipt'))), `asset_id ${JSON.stringify(assetId)}`);
      }
    },
  },
  {
    id: 'DECIDE-PART-ID-ECHOED',
    level: 'SHOULD',
    seedSections: ['2.2', '7'],
    title: "The error message about a part names the part's id (seed: the id is echoed in errors)",
    requires: { capabilities: ['multimodal', 'assets'] },
    async run(t) {
      await withUploadedAssets(t, 'image', 1, async ([assetId]) => {
        const cases = [
          { what: 'a video part', id: 'clip-7f3a', part: mediaPart('video', assetId!, 'clip-7f3a') },
          { what: 'a text part with an unknown field', id: 'note-2c9d', part: { ...textPart('See attached.', 'note-2c9d'), lang: 'en' } },
        ];
        for (const { what, id, part } of cases) {
          const reply = await t.a.decide(partsBody(part));
          const message = reply.json?.error?.message;
          if (reply.status < 400 || typeof message !== 'string') t.fail(`an error with a message for ${what}`, describeReply(reply));
          if (!message.includes(id)) t.fail(`the part id ${JSON.stringify(id)} in the error message for ${what}`, JSON.stringify(message));
        }
      });
    },
  },
  {
    id: 'DECIDE-OBSERVE-TEXT-PLAIN',
    level: 'OBSERVE',
    seedSections: ['4', '4.1'],
    openPoint: 'json-content-type',
    title: 'What a valid decide body sent as text/plain leads to',
    async run(t) {
      const reply = await postDecideText(t.a, JSON.stringify(decideBody()), 'text/plain');
      observeOutcome(t, reply, { status: referenceChoice<number>('json-content-type', 'status'), code: referenceChoice<string>('json-content-type', 'code') });
    },
  },
  {
    id: 'DECIDE-OBSERVE-EMPTY-CONTENT-TYPE',
    level: 'OBSERVE',
    seedSections: ['4', '4.1'],
    openPoint: 'json-content-type',
    title: 'What a valid decide body sent with the Content-Type header present and empty leads to',
    async run(t) {
      const body = JSON.stringify(decideBody());
      // The same bytes as application/json are served: what differs can only come from the emptied header.
      expectSuccess(await postDecideText(t.a, body), 'for the valid decide body sent as application/json');
      const reply = await postDecideText(t.a, body, '');
      observeOutcome(t, reply, { status: referenceChoice<number>('json-content-type', 'status'), code: referenceChoice<string>('json-content-type', 'code') });
    },
  },
  {
    id: 'DECIDE-OBSERVE-NO-OPTIONS',
    level: 'OBSERVE',
    seedSections: ['2.3'],
    openPoint: 'id-format-and-count',
    title: 'What a choice question with an empty options object leads to',
    async run(t) {
      observeOutcome(t, await t.a.decide({ context: BILLING_CONTEXT, questions: { topic: choiceQuestion({}) } }), referenceOf('INVALID_OPTIONS'));
    },
  },
  {
    id: 'DECIDE-OBSERVE-NOUL-NO-INSTRUCTIONS',
    level: 'OBSERVE',
    seedSections: ['2.3'],
    openPoint: 'noul-instructions-required',
    title: 'What a noul question without instructions leads to',
    requires: { capabilities: ['noul'] },
    async run(t) {
      observeOutcome(t, await t.a.decide({ context: BILLING_CONTEXT, questions: { refund: { type: 'noul' } } }), referenceOf('INVALID_REQUEST'));
    },
  },
  {
    id: 'DECIDE-OBSERVE-MODEL-FIELD',
    level: 'OBSERVE',
    seedSections: ['4.1', '2.6'],
    openPoint: 'model-selection',
    title: 'What a decide body with a `model` field (svc-one-v1) leads to',
    async run(t) {
      observeOutcome(t, await t.a.decide({ ...decideBody(), model: 'svc-one-v1' }), referenceOf('INVALID_REQUEST'));
    },
  },
]);
