// Request builders shared by the decide checks: valid bodies, N questions, N parts, raw JSON
// text (for ids such as "__proto__" and for exact byte sizes), uploaded assets for media parts,
// and the short form of a reply that observations quote.
import type { ApiClient, CheckContext } from './context.ts';
import type { Reply } from './http.ts';
import { pngImage, sampleFor, type SampleMimeType } from './samples/media.ts';

/** A context that clearly matches the `billing` option of `choiceQuestion()`. */
export const BILLING_CONTEXT = 'I was charged twice for order 1182 and the payment must be refunded to my card.';

export type ChoiceOptions = Record<string, string>;

export const DEFAULT_OPTIONS: Readonly<ChoiceOptions> = Object.freeze({
  billing: 'Payments, refunds and invoices',
  shipping: 'Delivery and tracking',
  other: '',
});

export function choiceQuestion(options: ChoiceOptions = { ...DEFAULT_OPTIONS }): { type: 'choice'; options: ChoiceOptions } {
  return { type: 'choice', options };
}

/** A valid decide body: a string context and one choice question `topic` with three options. */
export function decideBody(context: unknown = BILLING_CONTEXT): { context: unknown; questions: Record<string, unknown> } {
  return { context, questions: { topic: choiceQuestion() } };
}

/** `count` question ids q01, q02, … (two digits, so they sort as sent). */
export function questionIds(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `q${String(index + 1).padStart(2, '0')}`);
}

/** `count` choice questions keyed q01, q02, … */
export function choiceQuestions(count: number): Record<string, unknown> {
  return Object.fromEntries(questionIds(count).map((id) => [id, choiceQuestion()]));
}

export function textPart(text: string, id?: string): Record<string, unknown> {
  return { type: 'text', ...(id !== undefined ? { id } : {}), text };
}

/** `count` short text parts with ids part-1, part-2, … */
export function textParts(count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, index) => textPart(`Line ${index + 1} of the customer's message: I was charged twice.`, `part-${index + 1}`));
}

export type MediaPartType = 'image' | 'document' | 'audio';

/** A part that references an asset; `type` is a string so that unsupported types (video) can be sent too. */
export function mediaPart(type: MediaPartType | 'video', assetId: string, id?: string): Record<string, unknown> {
  return { type, ...(id !== undefined ? { id } : {}), asset_id: assetId };
}

/**
 * The raw JSON text of a decide body whose questions object has exactly these own keys, in this
 * order. Building the text ourselves keeps ids such as "__proto__" as plain keys on the wire.
 */
export function decideJsonText(context: unknown, questions: ReadonlyArray<readonly [string, unknown]>): string {
  const entries = questions.map(([id, question]) => `${JSON.stringify(id)}:${JSON.stringify(question)}`);
  return `{"context":${JSON.stringify(context)},"questions":{${entries.join(',')}}}`;
}

/** The raw JSON text of one choice question `topic` whose options object has exactly these own keys. */
export function choiceWithOptionIdsText(context: string, optionIds: readonly string[]): string {
  const options = optionIds.map((id, index) => `${JSON.stringify(id)}:${JSON.stringify(`Option number ${index + 1}`)}`);
  return `{"context":${JSON.stringify(context)},"questions":{"topic":{"type":"choice","options":{${options.join(',')}}}}}`;
}

/**
 * A valid decide body of exactly `bytes` bytes of UTF-8: one choice question whose `billing`
 * description is padded with `filler` (ASCII by default, one byte a character; a multi-byte
 * filler makes a body with fewer characters than bytes), topped up with ASCII letters.
 */
export function decideTextOfBytes(bytes: number, filler = 'refund '): string {
  const build = (padding: string) =>
    JSON.stringify({ context: 'Which team handles a refund for a double charge?', questions: { topic: { type: 'choice', options: { billing: padding, shipping: 'Delivery and tracking' } } } });
  const missing = bytes - Buffer.byteLength(build(''));
  if (missing < 0) throw new Error(`A decide body cannot be as small as ${bytes} bytes`);
  const fillerBytes = Buffer.byteLength(filler);
  const repeats = Math.floor(missing / fillerBytes);
  const text = build(`${filler.repeat(repeats)}${'x'.repeat(missing - repeats * fillerBytes)}`);
  if (Buffer.byteLength(text) !== bytes) throw new Error(`Built ${Buffer.byteLength(text)} bytes instead of ${bytes}`);
  return text;
}

/** POST /v1/decide with a body sent exactly as given. */
export function postDecideText(client: ApiClient, text: string, contentType = 'application/json', headers?: Record<string, string>): Promise<Reply> {
  return client.send({ method: 'POST', path: '/v1/decide', raw: text, contentType, ...(headers ? { headers } : {}) });
}

const SAMPLE_TYPE_OF: Record<MediaPartType, SampleMimeType> = { image: 'image/png', document: 'application/pdf', audio: 'audio/wav' };

/**
 * Uploads `count` small valid files for parts of `type` with the first project's key, runs `use`
 * with their ids, then deletes them. An upload that fails skips the check: the assets area judges
 * uploads; here they only prepare a request.
 */
export async function withUploadedAssets(t: CheckContext, type: MediaPartType, count: number, use: (assetIds: string[]) => Promise<void>): Promise<void> {
  const mimeType = SAMPLE_TYPE_OF[type];
  const ids: string[] = [];
  try {
    for (let index = 0; index < count; index += 1) {
      const reply = await t.a.upload(type === 'image' ? pngImage() : sampleFor(mimeType), mimeType);
      const id = reply.json?.id;
      if (reply.status < 200 || reply.status >= 300 || typeof id !== 'string') {
        t.skip(`could not prepare the request: uploading a ${mimeType} sample answered status ${reply.status}`);
      }
      ids.push(id);
    }
    await use(ids);
  } finally {
    for (const id of ids) await t.a.deleteAsset(id).catch(() => undefined);
  }
}

/** "status 200", or "status 400 with code INVALID_REQUEST": what an observation quotes of a reply. */
export function replyOutcome(reply: Reply): string {
  const code = reply.json?.error?.code;
  return `status ${reply.status}${typeof code === 'string' ? ` with code ${code}` : ''}`;
}
