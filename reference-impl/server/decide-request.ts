// Checks a decide body against the seed, in the order a caller can act on: modality, schema,
// media counts, then the reference choices the schema leaves open.
import {
  currentModel,
  isObject,
  mediaPartLimits,
  modelAliases,
  referenceChoice,
  requestBodyValidator,
  schemaKeywordLimits,
  unsupportedPartTypes,
  type Schemas,
  type ValidationIssue,
} from '../../spec/index.ts';
import { failure, type ApiFailure } from './errors.ts';
import type { ServerProfile } from './profile.ts';

const minOptions = referenceChoice<number>('id-format-and-count', 'min_options');
const validateDecideBody = requestBodyValidator('decide');
/** The 8,000-character limits; the schema's maxLength counts code points (open point character-counting). */
const stringContextMax = schemaKeywordLimits.string_context_length!.keywords.maxLength as number;
const textPartMax = schemaKeywordLimits.text_part_length!.keywords.maxLength as number;

/** The choices of the server's profile that decide whether a body is valid. */
export type DecideRequestRules = Pick<ServerProfile, 'characterUnit' | 'noulInstructionsRequired' | 'modelField' | 'idPattern'>;
/** The names a request may select when the profile takes a model field (seed 2.6). */
const MODEL_NAMES = [currentModel, ...modelAliases];

/** The first question or option id that does not match the profile's id pattern, as a pointer. */
function idOutsidePattern(request: Schemas['DecideRequest'], pattern: RegExp): string | undefined {
  for (const [questionId, question] of Object.entries(request.questions)) {
    const pointer = `/questions/${escapePointer(questionId)}`;
    if (!pattern.test(questionId)) return pointer;
    const options = 'options' in question && isObject(question.options) ? Object.keys(question.options) : [];
    const bad = options.find((optionId) => !pattern.test(optionId));
    if (bad !== undefined) return `${pointer}/options/${escapePointer(bad)}`;
  }
  return undefined;
}

/** A text over its limit in UTF-16 code units (its .length), when that is what the profile counts. */
function overUtf16Limit(request: Schemas['DecideRequest']): string | undefined {
  if (typeof request.context === 'string')
    return request.context.length > stringContextMax ? `/context: must NOT have more than ${stringContextMax} characters (UTF-16 code units).` : undefined;
  for (const [index, part] of request.context.entries()) {
    if (part.type === 'text' && part.text.length > textPartMax)
      return `/context/${index}/text${partLabel(request, `/context/${index}`)}: must NOT have more than ${textPartMax} characters (UTF-16 code units).`;
  }
  return undefined;
}

/** ` (id "receipt")` when the pointer is inside a content part that has an id: the seed echoes part ids in errors. */
export function partLabel(body: unknown, pointer: string): string {
  const index = /^\/context\/(\d+)/.exec(pointer)?.[1];
  if (index === undefined || !isObject(body) || !Array.isArray(body.context)) return '';
  const part = body.context[Number(index)];
  return isObject(part) && typeof part.id === 'string' ? ` (id ${JSON.stringify(part.id)})` : '';
}

function describeIssue(body: unknown, issue: ValidationIssue): string {
  const where = `${issue.pointer || '/'}${partLabel(body, issue.pointer)}`;
  const text = issue.message.slice(issue.message.indexOf(' ') + 1);
  if (issue.keyword === 'additionalProperties') return `Unknown field at ${where}: ${text.replace('must NOT have additional properties: ', '')}.`;
  return `${where}: ${text}.`;
}

/** The most specific issue: the deepest pointer, so a bad part is named rather than the whole context. */
function mostSpecific(issues: ValidationIssue[]): ValidationIssue | undefined {
  const specific = issues.filter((issue) => issue.keyword !== 'oneOf' && issue.keyword !== 'if');
  return (specific.length > 0 ? specific : issues).reduce<ValidationIssue | undefined>(
    (best, issue) => (!best || issue.pointer.split('/').length > best.pointer.split('/').length ? issue : best),
    undefined,
  );
}

export function checkDecideRequest(input: unknown, rules: DecideRequestRules): ApiFailure | undefined {
  if (!isObject(input)) return failure('INVALID_REQUEST', 'The body must be a JSON object with context and questions.');
  // Open point model-selection: where the profile takes a model field, it is checked here and
  // the rest of the body is validated against the spec's schema, which has no such field.
  let body = input;
  if (rules.modelField && Object.hasOwn(input, 'model')) {
    const { model, ...rest } = input;
    if (typeof model !== 'string' || !MODEL_NAMES.includes(model)) return failure('INVALID_REQUEST', `/model must be one of ${MODEL_NAMES.join(', ')}.`);
    body = rest;
  }

  if (Array.isArray(body.context)) {
    for (const [index, part] of body.context.entries()) {
      const type = isObject(part) ? part.type : undefined;
      const unsupported = typeof type === 'string' && Object.hasOwn(unsupportedPartTypes, type) ? unsupportedPartTypes[type] : undefined;
      if (unsupported) {
        return failure(unsupported.code, `/context/${index}${partLabel(body, `/context/${index}`)}: ${type} parts are not supported.`);
      }
    }
  }

  const result = validateDecideBody(body);
  if (!result.valid) return failure('INVALID_REQUEST', describeIssue(body, mostSpecific(result.issues)!));

  const request = body as unknown as Schemas['DecideRequest'];
  if (rules.idPattern !== null) {
    const outside = idOutsidePattern(request, new RegExp(rules.idPattern));
    if (outside) return failure('INVALID_REQUEST', `${outside}: ids must match ${rules.idPattern}.`);
  }
  if (rules.characterUnit === 'utf-16-code-units') {
    const over = overUtf16Limit(request);
    if (over) return failure('INVALID_REQUEST', over);
  }
  if (Array.isArray(request.context)) {
    const seen = new Map<string, number>();
    for (const [index, part] of request.context.entries()) {
      const limit = part.type === 'text' ? undefined : mediaPartLimits[part.type];
      if (!limit) continue;
      const count = (seen.get(part.type) ?? 0) + 1;
      seen.set(part.type, count);
      if (count > limit.max) {
        return failure(
          limit.code,
          `/context/${index}${partLabel(body, `/context/${index}`)}: at most ${limit.max} ${part.type} part${limit.max === 1 ? '' : 's'} per request.`,
        );
      }
    }
  }

  for (const [questionId, question] of Object.entries(request.questions)) {
    const pointer = `/questions/${escapePointer(questionId)}`;
    if ((question.type === 'choice' || question.type === 'multi') && Object.keys(question.options).length < minOptions) {
      return failure('INVALID_OPTIONS', `${pointer}/options must have at least ${minOptions} option.`);
    }
    if (question.type === 'noul' && rules.noulInstructionsRequired && typeof question.instructions !== 'string') {
      return failure('INVALID_REQUEST', `${pointer}: noul questions need instructions.`);
    }
  }
  return undefined;
}

export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
