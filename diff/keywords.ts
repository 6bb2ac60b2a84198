// The keyword table: every keyword of the JSON Schema 2020-12 validation, applicator,
// unevaluated and format vocabularies, and the OpenAPI keywords that change what is valid, with
// how a change to it is judged and the rule family that judges it. A keyword not in this table
// and not an annotation is judged by the fallback (schema keywords): its direction is unknown,
// so it breaks both sides.

export type Vocabulary = 'validation' | 'applicator' | 'unevaluated' | 'format' | 'meta-data' | 'core' | 'openapi';

/**
 * How a change to the keyword moves the set of valid values:
 * - bound: a number; `narrows` says which way a change narrows (a larger minimum, a smaller
 *   maximum); absent counts as `default` when the keyword has one, else as no bound.
 * - flag: true narrows (uniqueItems).
 * - divisor: multipleOf; a multiple of the old divisor narrows, a divisor of it widens.
 * - pattern: see pattern-languages.ts (compared as languages, by automata).
 * - values: type, enum, const, format, nullable (schema values).
 * - names: a list of property names that must be present; more names narrow.
 * - subschema: one subschema, absent meaning `true`; a narrower subschema narrows the whole.
 * - subschemas: a map or list of subschemas, each judged like `subschema`.
 * - variants: anyOf / oneOf; a variant added widens.
 * - members: allOf; a member added narrows.
 * - negation: not; added narrows, removed widens, changed is undecided.
 * - condition: if; any change is undecided (it selects then or else).
 * - contains: added narrows (an item must match), removed widens, the subschema walked.
 * - visibility: readOnly / writeOnly, judged on the side where they apply.
 * - discriminator: the property name and mapping (schema composition).
 * - annotation: changes no valid value (INFO at most, never judged here).
 * - container: holds subschemas reached only through $ref ($defs); the $ref is walked.
 */
export type KeywordLogic =
  | { kind: 'bound'; narrows: 'larger' | 'smaller'; stem: string; default?: number }
  | {
      kind:
        | 'flag'
        | 'divisor'
        | 'pattern'
        | 'values'
        | 'names'
        | 'subschema'
        | 'subschemas'
        | 'variants'
        | 'members'
        | 'negation'
        | 'condition'
        | 'contains'
        | 'visibility'
        | 'discriminator'
        | 'annotation'
        | 'container';
    };

export interface KeywordEntry {
  keyword: string;
  vocabulary: Vocabulary;
  logic: KeywordLogic;
  /** The registry family that judges the keyword (its name in the catalogue). */
  family: string;
}

const bound = (keyword: string, stem: string, narrows: 'larger' | 'smaller', defaultValue?: number): KeywordEntry => ({
  keyword,
  vocabulary: 'validation',
  logic: { kind: 'bound', narrows, stem, ...(defaultValue === undefined ? {} : { default: defaultValue }) },
  family: 'schema constraints',
});

const entry = (keyword: string, vocabulary: Vocabulary, kind: Exclude<KeywordLogic['kind'], 'bound'>, family: string): KeywordEntry => ({
  keyword,
  vocabulary,
  logic: { kind },
  family,
});

export const KEYWORDS: readonly KeywordEntry[] = [
  // Validation vocabulary.
  entry('type', 'validation', 'values', 'schema values'),
  entry('enum', 'validation', 'values', 'schema values'),
  entry('const', 'validation', 'values', 'schema values'),
  entry('multipleOf', 'validation', 'divisor', 'schema constraints'),
  bound('maximum', 'maximum', 'smaller'),
  bound('exclusiveMaximum', 'exclusive-maximum', 'smaller'),
  bound('minimum', 'minimum', 'larger'),
  bound('exclusiveMinimum', 'exclusive-minimum', 'larger'),
  bound('maxLength', 'max-length', 'smaller'),
  bound('minLength', 'min-length', 'larger', 0),
  entry('pattern', 'validation', 'pattern', 'schema constraints'),
  bound('maxItems', 'max-items', 'smaller'),
  bound('minItems', 'min-items', 'larger', 0),
  entry('uniqueItems', 'validation', 'flag', 'schema constraints'),
  bound('maxContains', 'max-contains', 'smaller'),
  bound('minContains', 'min-contains', 'larger', 1),
  bound('maxProperties', 'max-properties', 'smaller'),
  bound('minProperties', 'min-properties', 'larger', 0),
  entry('required', 'validation', 'names', 'schema properties'),
  entry('dependentRequired', 'validation', 'names', 'schema applicators'),
  // Applicator vocabulary.
  entry('prefixItems', 'applicator', 'subschemas', 'schema applicators'),
  entry('items', 'applicator', 'subschema', 'schema applicators'),
  entry('contains', 'applicator', 'contains', 'schema applicators'),
  entry('additionalProperties', 'applicator', 'subschema', 'schema applicators'),
  entry('properties', 'applicator', 'subschemas', 'schema properties'),
  entry('patternProperties', 'applicator', 'subschemas', 'schema applicators'),
  entry('dependentSchemas', 'applicator', 'subschemas', 'schema applicators'),
  entry('propertyNames', 'applicator', 'subschema', 'schema applicators'),
  entry('if', 'applicator', 'condition', 'schema composition'),
  entry('then', 'applicator', 'subschema', 'schema applicators'),
  entry('else', 'applicator', 'subschema', 'schema applicators'),
  entry('allOf', 'applicator', 'members', 'schema composition'),
  entry('anyOf', 'applicator', 'variants', 'schema composition'),
  entry('oneOf', 'applicator', 'variants', 'schema composition'),
  entry('not', 'applicator', 'negation', 'schema composition'),
  // Unevaluated vocabulary.
  entry('unevaluatedItems', 'unevaluated', 'subschema', 'schema applicators'),
  entry('unevaluatedProperties', 'unevaluated', 'subschema', 'schema applicators'),
  // Format vocabulary (the kit treats format as an assertion, as its validators do).
  entry('format', 'format', 'values', 'schema values'),
  // Meta-data vocabulary: readOnly and writeOnly decide what may be sent on each side.
  entry('readOnly', 'meta-data', 'visibility', 'schema values'),
  entry('writeOnly', 'meta-data', 'visibility', 'schema values'),
  // OpenAPI keywords that change what is valid.
  entry('discriminator', 'openapi', 'discriminator', 'schema composition'),
  entry('nullable', 'openapi', 'values', 'schema values'),
  // $defs holds subschemas that count only where a $ref reaches them, and the walk follows the $ref.
  entry('$defs', 'core', 'container', 'schema keywords'),
  entry('definitions', 'core', 'container', 'schema keywords'),
];

/**
 * Keywords that describe a value without changing which values are valid. Only these (and
 * `x-` extensions) may change without a verdict.
 */
export const ANNOTATIONS: readonly string[] = ['title', 'description', 'examples', 'example', '$comment', 'deprecated', 'externalDocs', 'xml'];

export const isAnnotation = (keyword: string) => keyword.startsWith('x-') || ANNOTATIONS.includes(keyword);

const byKeyword = new Map(KEYWORDS.map((k) => [k.keyword, k]));

const kindsOf = (...kinds: KeywordLogic['kind'][]) => KEYWORDS.filter((k) => kinds.includes(k.logic.kind)).map((k) => k.keyword);
/** prefixItems is the one `subschemas` keyword that holds a list; the others hold a map by name. */
const LISTED = ['prefixItems'];

/**
 * The keywords that apply subschemas to a value or its parts, by how they hold them: one
 * subschema, a list, or a map by name. `$defs` is not among them: it only holds what a `$ref` reaches.
 */
export const APPLIED_SUBSCHEMAS = {
  one: kindsOf('subschema', 'negation', 'condition', 'contains'),
  list: [...kindsOf('variants', 'members'), ...LISTED],
  map: kindsOf('subschemas').filter((keyword) => !LISTED.includes(keyword)),
} as const;

/**
 * Keywords that evaluate the value in place (their subschemas judge the same value as their
 * parent), so unevaluatedProperties and unevaluatedItems see what they evaluated. `not` is not
 * among them: it evaluates nothing its parent sees.
 */
export const EVALUATING_IN_PLACE: readonly string[] = ['allOf', 'anyOf', 'oneOf', '$ref', '$dynamicRef', 'if', 'then', 'else', 'dependentSchemas'];

export const keywordEntry = (keyword: string): KeywordEntry | undefined => byKeyword.get(keyword);

export const BOUNDS = KEYWORDS.flatMap((k) => (k.logic.kind === 'bound' ? [{ keyword: k.keyword, ...k.logic }] : []));
