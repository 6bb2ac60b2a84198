// Request bodies the suites and the load scenarios send, as plain data: no I/O and no imports,
// so that the load generators (k6 among them, through load/definitions/response-rules.js) build
// exactly the requests the conformance suite builds.

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

/** One question of each other type, as the reference server reads them (score fields are an open point, seed 2.3). */
export const OTHER_TYPE_QUESTIONS = Object.freeze({
  noul: Object.freeze({ type: 'noul', instructions: 'Does the customer ask for a refund?' }),
  multi: Object.freeze({
    type: 'multi',
    options: Object.freeze({ refund: null, late_delivery: null, damaged_item: null }),
    instructions: 'Which issues does the customer raise?',
  }),
  score: Object.freeze({ type: 'score', instructions: 'How urgent is the customer request?' }),
});

export type QuestionType = 'choice' | keyof typeof OTHER_TYPE_QUESTIONS;

/** A fresh question of `type`: the choice question of choiceQuestion(), or the shape above. */
export function questionOfType(type: QuestionType): Record<string, unknown> {
  return type === 'choice' ? choiceQuestion() : structuredCopy(OTHER_TYPE_QUESTIONS[type]);
}

const structuredCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Feedback of the reference shape (open point feedback-shape, seed 4.2): the decision's request
 * id and, per question id, whether its answer was correct.
 */
export function referenceFeedbackBody(
  requestId: string,
  questionIds: readonly string[],
  correct: boolean,
): { request_id: string; answers: Record<string, { correct: boolean }> } {
  return { request_id: requestId, answers: Object.fromEntries(questionIds.map((id) => [id, { correct }])) };
}
