// Limits (seed 8, with 2.1, 2.2 and 4.1): each limit probed on both sides of its boundary. The
// inside passes (a 2xx whose body validates); the outside is rejected in the seed's error body.
import { errorCode, openapiDocument, requestBodyLimitBytes, type JsonObject } from '../spec/index.ts';
import { area, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { expectInvalidRequest } from './decide-validation.ts';
import { describeReply, expectErrorBody, expectSuccess, expectValidBody } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { BILLING_CONTEXT, choiceQuestions, decideBody, decideTextOfBytes, mediaPart, postDecideText, replyOutcome, textPart, textParts, withUploadedAssets, type MediaPartType } from '../harness/requests.ts';

/** Seed 4.1 and 8: 256 KiB. */
const BODY_LIMIT_BYTES = requestBodyLimitBytes;
const MAX_TEXT = 8000;
const MAX_QUESTIONS = 16;
const MAX_PARTS = 16;
const MAX_PART_ID = 100;

const mediaLimits = ((openapiDocument.components as JsonObject).schemas as JsonObject).ContentParts as JsonObject;
/** The per-request media limits and their codes, as the spec records them (x-media-limits). */
const MEDIA_LIMITS = mediaLimits['x-media-limits'] as Record<MediaPartType, { max: number; code: string }>;

/** Inside a limit: a 2xx whose body meets the contract. */
function expectAccepted(reply: Reply, what: string): void {
  expectSuccess(reply, `for ${what} (within the limit)`);
  expectValidBody(reply, 'decide');
}

/** ASCII text of exactly `length` characters (one code point and one UTF-16 unit each). */
function textOf(length: number): string {
  return 'I was charged twice for one order. '.repeat(Math.ceil(length / 35)).slice(0, length);
}

/** A context of one leading text part and `count` parts of `type` referencing these assets. */
function mediaBody(type: MediaPartType, assetIds: readonly string[]) {
  const parts = assetIds.map((assetId, index) => mediaPart(type, assetId, `${type}-${index + 1}`));
  return decideBody([textPart('Do these files show the same order?', 'intro'), ...parts]);
}

/** Uploads max + 1 files of a kind and sends max + 1 parts of it; `judge` sees the reply. */
function overMediaLimit(t: CheckContext, type: MediaPartType, judge: (reply: Reply, assetIds: string[]) => Promise<void>): Promise<void> {
  return withUploadedAssets(t, type, MEDIA_LIMITS[type].max + 1, async (assetIds) => judge(await t.a.decide(mediaBody(type, assetIds)), assetIds));
}

function mediaCountChecks(type: MediaPartType, plural: string): Array<Omit<Check, 'area'>> {
  const { max, code } = MEDIA_LIMITS[type];
  const id = `LIMIT-${plural.toUpperCase()}`;
  return [
    {
      id: `${id}-${max}-${max + 1}`,
      level: 'MUST',
      seedSections: ['2.2', '8'],
      title: `${max} ${type} part${max === 1 ? ' passes' : 's pass'}; ${max + 1} are rejected in the seed's error body`,
      requires: { capabilities: ['multimodal', 'assets'] },
      async run(t) {
        await overMediaLimit(t, type, async (over, assetIds) => {
          expectAccepted(await t.a.decide(mediaBody(type, assetIds.slice(0, max))), `${max} ${plural}`);
          if (over.status < 400) t.fail(`an error status for ${max + 1} ${plural}`, describeReply(over));
          expectErrorBody(over);
        });
      },
    },
    {
      // Seed 7 names the code beside this limit but leaves its condition open (name-only-statuses):
      // INVALID_REQUEST, the code of any invalid request, is as right, so the named code is SHOULD.
      id: `${id}-CODE`,
      level: 'SHOULD',
      seedSections: ['7', '8'],
      bounds: ['name-only-statuses'],
      title: `${max + 1} ${type} parts are rejected with ${code}, the code the seed names for this limit`,
      requires: { capabilities: ['multimodal', 'assets'] },
      async run(t) {
        await overMediaLimit(t, type, async (over) => expectErrorBody(over, code));
      },
    },
  ];
}

export const limitChecks: Check[] = area('limits', [
  {
    id: 'LIMIT-QUESTIONS-16-17',
    level: 'MUST',
    seedSections: ['2.1', '8'],
    title: '16 questions pass; 17 are rejected with 400 INVALID_REQUEST',
    async run(t) {
      expectAccepted(await t.a.decide({ context: BILLING_CONTEXT, questions: choiceQuestions(MAX_QUESTIONS) }), '16 questions');
      expectInvalidRequest(await t.a.decide({ context: BILLING_CONTEXT, questions: choiceQuestions(MAX_QUESTIONS + 1) }), '17 questions');
    },
  },
  {
    id: 'LIMIT-QUESTIONS-0',
    level: 'MUST',
    seedSections: ['2.1', '8'],
    title: 'An empty questions object is rejected with 400 INVALID_REQUEST',
    async run(t) {
      expectInvalidRequest(await t.a.decide({ context: BILLING_CONTEXT, questions: {} }), 'no questions');
    },
  },
  {
    id: 'LIMIT-CONTEXT-8000-8001',
    level: 'MUST',
    seedSections: ['2.1', '8'],
    title: 'A string context of 8,000 characters passes; 8,001 is rejected with 400 INVALID_REQUEST',
    async run(t) {
      expectAccepted(await t.a.decide(decideBody(textOf(MAX_TEXT))), 'a context of 8,000 characters');
      expectInvalidRequest(await t.a.decide(decideBody(textOf(MAX_TEXT + 1))), 'a context of 8,001 characters');
    },
  },
  {
    id: 'LIMIT-CONTEXT-EMPTY',
    level: 'MUST',
    seedSections: ['2.1', '8'],
    title: 'An empty string context is rejected with 400 INVALID_REQUEST',
    async run(t) {
      expectInvalidRequest(await t.a.decide(decideBody('')), 'an empty context');
    },
  },
  {
    id: 'LIMIT-CONTEXT-CHARACTER-COUNTING',
    level: 'OBSERVE',
    seedSections: ['8'],
    openPoint: 'character-counting',
    title: 'What a context of 8,000 emoji (8,000 code points, 16,000 UTF-16 units) leads to',
    async run(t) {
      const reply = await t.a.decide(decideBody('\u{1F4E6}'.repeat(MAX_TEXT)));
      const accepted = reply.status >= 200 && reply.status < 300;
      t.observe({ summary: `${replyOutcome(reply)}: ${accepted ? 'accepted: 8,000 code points count as 8,000 characters' : 'refused: the server may count UTF-16 units or bytes'}`, matchesReference: accepted });
    },
  },
  {
    id: 'LIMIT-TEXT-PART-8000-8001',
    level: 'MUST',
    seedSections: ['2.2', '8'],
    title: 'A text part of 8,000 characters passes; 8,001 is rejected with 400 INVALID_REQUEST',
    requires: { capabilities: ['multimodal'] },
    async run(t) {
      expectAccepted(await t.a.decide(decideBody([textPart(textOf(MAX_TEXT), 'long')])), 'a text part of 8,000 characters');
      expectInvalidRequest(await t.a.decide(decideBody([textPart(textOf(MAX_TEXT + 1), 'long')])), 'a text part of 8,001 characters');
    },
  },
  {
    id: 'LIMIT-TEXT-PART-EMPTY',
    level: 'MUST',
    seedSections: ['2.2', '8'],
    title: 'An empty text part is rejected with 400 INVALID_REQUEST',
    requires: { capabilities: ['multimodal'] },
    async run(t) {
      expectInvalidRequest(await t.a.decide(decideBody([textPart(BILLING_CONTEXT, 'intro'), textPart('', 'empty')])), 'an empty text part');
    },
  },
  {
    id: 'LIMIT-PARTS-16-17',
    level: 'MUST',
    seedSections: ['2.1', '8'],
    title: '16 parts pass; 17 are rejected with 400 INVALID_REQUEST',
    requires: { capabilities: ['multimodal'] },
    async run(t) {
      expectAccepted(await t.a.decide(decideBody(textParts(MAX_PARTS))), '16 parts');
      expectInvalidRequest(await t.a.decide(decideBody(textParts(MAX_PARTS + 1))), '17 parts');
    },
  },
  {
    id: 'LIMIT-PARTS-0',
    level: 'MUST',
    seedSections: ['2.1', '8'],
    title: 'An empty list context is rejected with 400 INVALID_REQUEST',
    requires: { capabilities: ['multimodal'] },
    async run(t) {
      expectInvalidRequest(await t.a.decide(decideBody([])), 'a context of no parts');
    },
  },
  {
    id: 'LIMIT-PART-ID-100-101',
    level: 'MUST',
    seedSections: ['2.2', '8'],
    title: 'A part id of 100 characters passes; 101 is rejected with 400 INVALID_REQUEST',
    requires: { capabilities: ['multimodal'] },
    async run(t) {
      const partId = (length: number) => 'part-id.'.repeat(13).slice(0, length);
      expectAccepted(await t.a.decide(decideBody([textPart(BILLING_CONTEXT, partId(MAX_PART_ID))])), 'a part id of 100 characters');
      expectInvalidRequest(await t.a.decide(decideBody([textPart(BILLING_CONTEXT, partId(MAX_PART_ID + 1))])), 'a part id of 101 characters');
    },
  },
  {
    id: 'LIMIT-BODY-256KIB',
    level: 'MUST',
    seedSections: ['4.1', '8', '7'],
    title: "A body of exactly 262,144 bytes passes; 262,145 bytes are rejected with an error status in the seed's error body",
    async run(t) {
      expectAccepted(await postDecideText(t.a, decideTextOfBytes(BODY_LIMIT_BYTES)), 'a body of 262,144 bytes');
      const over = await postDecideText(t.a, decideTextOfBytes(BODY_LIMIT_BYTES + 1));
      if (over.status < 400) t.fail('an error status for a body of 262,145 bytes', describeReply(over));
      expectErrorBody(over);
    },
  },
  {
    id: 'LIMIT-BODY-OVER-STATUS',
    level: 'OBSERVE',
    seedSections: ['4.1', '7', '8'],
    openPoint: 'name-only-statuses',
    title: 'The status and code of a body of 262,145 bytes',
    async run(t) {
      const reply = await postDecideText(t.a, decideTextOfBytes(BODY_LIMIT_BYTES + 1));
      const status = errorCode('PAYLOAD_TOO_LARGE').referenceStatus;
      t.observe({ summary: `${replyOutcome(reply)} (reference: ${status} PAYLOAD_TOO_LARGE)`, matchesReference: reply.status === status && reply.json?.error?.code === 'PAYLOAD_TOO_LARGE' });
    },
  },
  ...mediaCountChecks('image', 'images'),
  ...mediaCountChecks('document', 'documents'),
  ...mediaCountChecks('audio', 'audio'),
  {
    id: 'LIMIT-MEDIA-STATUS',
    level: 'OBSERVE',
    seedSections: ['7', '8'],
    openPoint: 'name-only-statuses',
    title: 'The statuses of 5 images, 3 documents and 2 audio clips in one request',
    requires: { capabilities: ['multimodal', 'assets'] },
    async run(t) {
      const seen: string[] = [];
      let asReference = true;
      for (const [type, plural] of [['image', 'images'], ['document', 'documents'], ['audio', 'audio clips']] as const) {
        await overMediaLimit(t, type, async (over) => {
          const { max, code } = MEDIA_LIMITS[type];
          const status = errorCode(code).referenceStatus;
          seen.push(`${max + 1} ${plural}: ${replyOutcome(over)} (reference: ${status} ${code})`);
          asReference &&= over.status === status && over.json?.error?.code === code;
        });
      }
      t.observe({ summary: seen.join('; '), matchesReference: asReference });
    },
  },
]);
