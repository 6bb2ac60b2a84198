// The cases of a JSON request body, derived from its schema keyword by keyword (Schemathesis's
// coverage phase): for every node, through $ref, allOf, oneOf and anyOf, the values at each bound
// and one past it, each const and enum value and another, each union branch, every JSON type the
// node does not admit, each required property missing, and for every closed object an unknown
// name and near-variants of each listed name. Whether a case is valid is ajv's verdict on the
// body sent, in the spec's reference form and in its contract form: invalid in the contract form
// is a refusal the seed requires; invalid only in the reference form is inside an open point.
import type { Capability } from '../harness/check.ts';
import type { CoverageRecord, UntestableEntry } from '../harness/coverage.ts';
import {
  constraintKeywords,
  isObject,
  jsonRequestSchema,
  pointerOf,
  requestBodySchemaName,
  resolvedSchema,
  schemaNodes,
  schemaValidator,
  type ConstraintKeyword,
  type Json,
  type JsonObject,
  type SchemaNode,
  type SchemaStep,
} from '../spec/index.ts';
import type { BaseRequest, CaseRequest, CoverageCase, Expectation } from './case.ts';
import { editAt, instantiate, setAt, Unbuildable, valueAt, withoutProperty, withRenamedProperty, type LeafHook, type Location } from './instances.ts';
import { admittedTypes, describeValue, lengthCases, nearVariants, offPattern, TYPE_SAMPLES, type JsonType } from './values.ts';

export interface BodySubject {
  operation: string;
  /** A body that passes. */
  root: unknown;
  hook: LeafHook;
  /** Capabilities the target claims: a node under a branch it does not claim is left untried, saying so. */
  claims: ReadonlySet<Capability>;
  /** The request that carries a body of the operation (feedback fills in a decision of its own). */
  request(body: unknown): Promise<CaseRequest>;
}

export interface GeneratedCases {
  bases: BaseRequest[];
  cases: CoverageCase[];
  untestable: UntestableEntry[];
}

/**
 * The capabilities a node's branches need (seed 1, open point availability): a list context is
 * multimodal, a part that references an asset needs assets too, and a question type other than
 * `choice` is a capability of its own name.
 */
export function capabilitiesOf(steps: readonly SchemaStep[], capabilityNames: readonly Capability[]): Capability[] {
  const needed = new Set<Capability>();
  for (const step of steps) {
    if (step.kind !== 'branch') continue;
    const { schema } = resolvedSchema({ $ref: `#/components/schemas/${step.name}` });
    if (schema.type === 'array') needed.add('multimodal');
    const tag = step.tag?.value;
    if (tag && (capabilityNames as readonly string[]).includes(tag)) needed.add(tag as Capability);
    if (isObject(schema.properties) && 'asset_id' in schema.properties) {
      needed.add('multimodal');
      needed.add('assets');
    }
  }
  return [...needed];
}

interface Variant {
  keyword: ConstraintKeyword;
  /** What was put in place, for the case's name. */
  label: string;
  body: unknown;
  /** The open point the changed value falls in, when not the node's own (another branch's tag selects that branch). */
  openPoint?: string;
  /** Another branch's tag put in place of this branch's. */
  siblingTag?: boolean;
}

/** The variants of one node's keywords, as bodies built on the node's base. */
function variantsOf(node: SchemaNode, union: SchemaNode | undefined, base: unknown, at: Location): Variant[] {
  const { schema } = node;
  const keywords = constraintKeywords(schema);
  const variants: Variant[] = [];
  const put = (keyword: ConstraintKeyword, label: string, value: unknown) => variants.push({ keyword, label, body: setAt(base, at, value) });
  const current = valueAt(base, at);

  // Every JSON type the node does not admit; a node without `type` counts them under the keyword that admits (const, oneOf).
  const admitted = admittedTypes(schema);
  const typeKeyword: ConstraintKeyword | undefined = keywords.includes('type')
    ? 'type'
    : keywords.includes('const')
      ? 'const'
      : keywords.includes('enum')
        ? 'enum'
        : keywords.includes('oneOf')
          ? 'oneOf'
          : keywords.includes('anyOf')
            ? 'anyOf'
            : undefined;
  if (admitted && typeKeyword) {
    for (const type of Object.keys(TYPE_SAMPLES) as JsonType[])
      if (!admitted.has(type)) put(typeKeyword, `${type} ${describeValue(TYPE_SAMPLES[type])}`, TYPE_SAMPLES[type]);
  }
  if (schema.type === 'integer') put('type', 'a number with a fraction 1.5', 1.5);

  if ('const' in schema) {
    const siblings = union ? siblingTags(union, node) : [];
    for (const other of siblings)
      variants.push({
        keyword: 'const',
        label: `another branch's tag ${JSON.stringify(other.value)}`,
        body: setAt(base, at, other.value),
        siblingTag: true,
        ...(other.openPoint ? { openPoint: other.openPoint } : {}),
      });
    if (typeof schema.const === 'string') put('const', `another value ${JSON.stringify(`${schema.const}_other`)}`, `${schema.const}_other`);
  }
  if (Array.isArray(schema.enum)) {
    for (const value of schema.enum) put('enum', `the value ${describeValue(value)}`, value);
    const first = schema.enum.find((value) => typeof value === 'string');
    if (typeof first === 'string') put('enum', `a value not listed ${JSON.stringify(`${first}_other`)}`, `${first}_other`);
  }

  if (keywords.includes('required') && isObject(current))
    for (const property of schema.required as string[])
      variants.push({ keyword: 'required', label: `${property} missing`, body: editAt(base, at, (value) => withoutProperty(value, property)) });

  if (keywords.includes('additionalProperties') && isObject(current)) {
    variants.push({
      keyword: 'additionalProperties',
      label: 'an unknown name "unknown_field"',
      body: editAt(base, at, (value) => ({ ...(value as object), unknown_field: 'value' })),
    });
    for (const property of Object.keys(schema.properties as JsonObject)) {
      if (!(property in current)) continue;
      for (const variant of nearVariants(property))
        variants.push({
          keyword: 'additionalProperties',
          label: `${property} written ${JSON.stringify(variant.name)} (${variant.how})`,
          body: editAt(base, at, (value) => withRenamedProperty(value, property, variant.name)),
        });
    }
  }

  for (const { keyword, length, value } of lengthCases(schema)) put(keyword, `${length} characters`, value);
  if (typeof schema.pattern === 'string' && typeof current === 'string') {
    const off = offPattern(schema, current);
    if (off !== undefined) put('pattern', `off the pattern ${JSON.stringify(off)}`, off);
  }

  for (const [keyword, bound, outside] of [
    ['minProperties', schema.minProperties, -1],
    ['maxProperties', schema.maxProperties, 1],
  ] as const) {
    if (typeof bound !== 'number' || !isObject(current)) continue;
    const [key, first] = Object.entries(current)[0] ?? [];
    for (const count of [bound, bound + outside])
      if (count >= 0 && key !== undefined) put(keyword, `${count} entries`, Object.fromEntries(entryKeys(key, count).map((name) => [name, first])));
  }
  for (const [keyword, bound, outside] of [
    ['minItems', schema.minItems, -1],
    ['maxItems', schema.maxItems, 1],
  ] as const) {
    if (typeof bound !== 'number' || !Array.isArray(current) || current.length === 0) continue;
    for (const count of [bound, bound + outside])
      if (count >= 0)
        put(
          keyword,
          `${count} items`,
          Array.from({ length: count }, () => current[0]),
        );
  }

  // A value no branch of an object union takes: an object without the tag.
  if (Array.isArray(schema.oneOf ?? schema.anyOf) && admitted?.has('object'))
    put(keywords.includes('oneOf') ? 'oneOf' : 'anyOf', 'an object of no branch {}', {});
  return variants;
}

/** `count` keys for a map: the existing one first, then key_2, key_3… */
function entryKeys(first: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => (index === 0 ? first : `${first}_${index + 1}`));
}

/** The tags the other branches of the node's union select by, when the node is a branch's tag property. */
function siblingTags(union: SchemaNode, node: SchemaNode): Array<{ value: string; openPoint?: string }> {
  const branchStep = node.steps.at(-2);
  const own = branchStep?.kind === 'branch' ? branchStep.index : -1;
  const branches = (union.schema.oneOf ?? union.schema.anyOf) as Json[];
  return branches.flatMap((branch, index) => {
    if (index === own) return [];
    const { schema } = resolvedSchema(branch);
    const tag = schema.properties;
    const property = node.steps.at(-1);
    const value = isObject(tag) && property?.kind === 'property' && isObject(tag[property.name]) ? (tag[property.name] as JsonObject).const : undefined;
    const openPoint = typeof schema['x-open-point'] === 'string' ? schema['x-open-point'] : undefined;
    return typeof value === 'string' ? [{ value, ...(openPoint ? { openPoint } : {}) }] : [];
  });
}

/** The keywords the unchanged base exercises at a node: it is of an admitted type, has what is required, lists only what is listed, takes its branch. */
function baseKeywords(node: SchemaNode): ConstraintKeyword[] {
  return constraintKeywords(node.schema).filter((keyword) =>
    ['type', 'const', 'required', 'additionalProperties', 'pattern', 'oneOf', 'anyOf'].includes(keyword),
  );
}

/** Every case of an operation's JSON body. */
export function bodyCases(subject: BodySubject, capabilityNames: readonly Capability[]): GeneratedCases {
  const root = jsonRequestSchema(subject.operation);
  const name = requestBodySchemaName(subject.operation);
  if (!root || !name) return { bases: [], cases: [], untestable: [] };
  const reference = schemaValidator(name, 'reference');
  const contract = schemaValidator(name, 'contract');
  const nodes = schemaNodes(root);
  const byPointer = new Map(nodes.map((node) => [node.pointer, node]));
  const parentOf = (node: SchemaNode) => (node.steps.length > 0 ? byPointer.get(pointerOf(node.steps.slice(0, -1))) : undefined);
  const bases = new Map<string, BaseRequest>();
  const cases: CoverageCase[] = [];
  const untestable: UntestableEntry[] = [];
  const sent = new Map<string, CoverageCase>();

  const record = (node: SchemaNode, keyword: string, polarity: 'positive' | 'negative'): CoverageRecord => ({
    kind: 'keyword',
    operation: subject.operation,
    location: 'body',
    pointer: node.pointer,
    keyword,
    polarity,
  });

  for (const node of nodes) {
    const requires = capabilitiesOf(node.steps, capabilityNames);
    const unclaimed = requires.filter((capability) => !subject.claims.has(capability));
    const skip = (reason: string) => {
      for (const keyword of constraintKeywords(node.schema)) untestable.push({ operation: subject.operation, what: `${node.pointer} ${keyword}`, reason });
    };
    if (unclaimed.length > 0) {
      skip(`the target does not claim ${unclaimed.join(', ')} (--capabilities)`);
      continue;
    }
    let built: { body: unknown; at: Location };
    try {
      built = instantiate(root, node.steps, subject.root, subject.hook);
    } catch (error) {
      if (!(error instanceof Unbuildable)) throw error;
      skip(error.message);
      continue;
    }
    const baseText = JSON.stringify(built.body);
    const baseKey = `${subject.operation} ${baseText}`;
    if (!bases.has(baseKey)) bases.set(baseKey, { key: baseKey, operation: subject.operation, request: () => subject.request(JSON.parse(baseText)), requires });
    if (!reference(built.body).valid)
      throw new Error(`The coverage base for ${subject.operation} ${node.pointer} is not valid: ${reference(built.body).issues[0]?.message}`);

    // The base itself is the positive case of what it exercises at this node, and of its branch at the union above.
    const parent = parentOf(node);
    const lastStep = node.steps.at(-1);
    const positives = [
      ...baseKeywords(node).map((keyword) => record(node, keyword, 'positive')),
      ...(lastStep?.kind === 'branch' && parent
        ? constraintKeywords(parent.schema)
            .filter((keyword) => keyword === 'oneOf' || keyword === 'anyOf')
            .map((keyword) => record(parent, keyword, 'positive'))
        : []),
    ];
    addCase(`body ${node.pointer}: the base`, built.body, positives, node, requires, baseKey);

    // A branch's tag property (`type` of TextPart) is tried with the tags of the union's other branches.
    const grandparent = parent && parent.steps.at(-1)?.kind === 'branch' ? parentOf(parent) : undefined;
    for (const variant of variantsOf(node, grandparent, built.body, built.at)) {
      const polarity = reference(variant.body).valid ? 'positive' : 'negative';
      // Another branch's tag that the fields fit (an image part retagged `document`) is that branch's case, whose meaning the schema does not hold (its asset's family).
      if (variant.siblingTag && variant.openPoint === undefined && polarity === 'positive') continue;
      addCase(
        `body ${node.pointer} ${variant.keyword}: ${variant.label}`,
        variant.body,
        [record(node, variant.keyword, polarity)],
        node,
        requires,
        baseKey,
        variant.openPoint,
      );
    }
  }

  /** Adds a case, or its records to the case that sends the same body already. */
  function addCase(
    caseName: string,
    body: unknown,
    records: CoverageRecord[],
    node: SchemaNode,
    requires: readonly Capability[],
    base: string,
    openPoint = node.openPoint,
  ) {
    const text = JSON.stringify(body);
    const same = sent.get(text);
    if (same) {
      same.records.push(...records);
      return;
    }
    const added: CoverageCase = {
      name: caseName,
      operation: subject.operation,
      base,
      prepare: () => subject.request(JSON.parse(text)),
      records,
      expectation: expectationOf(body, node, openPoint),
      requires,
    };
    sent.set(text, added);
    cases.push(added);
  }

  function expectationOf(body: unknown, node: SchemaNode, openPoint: string | undefined): Expectation {
    const valid = reference(body).valid;
    if (!valid && !contract(body).valid) return { kind: 'refused' };
    if (openPoint) return { kind: 'observed', openPoint };
    if (!valid) throw new Error(`${subject.operation} ${node.pointer}: a body invalid only in the reference form outside any open point`);
    return { kind: 'answered' };
  }

  return { bases: [...bases.values()], cases, untestable };
}
