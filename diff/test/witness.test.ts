// Every breaking finding of the corpus, both ways, is proved: its witness is checked here by an ajv
// of the test's own against the part's schema in both documents (found from the witness's
// operation and part, not from the gate's pointers), or the finding says why it has none.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { isObject, resolvePointer, type Json, type JsonObject } from '../../spec/index.ts';
import { diffDocuments } from '../diff.ts';
import type { Witness } from '../model.ts';
import { witnessLine } from '../witness-line.ts';
import { allCases } from './corpus/all.ts';
import { documentsOf } from './corpus/case.ts';

const deref = (doc: JsonObject, node: Json): Json => (isObject(node) && typeof node.$ref === 'string' ? deref(doc, resolvePointer(node.$ref, doc)) : node);

/** The schema of a witness's part in a document, read from the operation and the part's name. */
function partSchema(doc: JsonObject, witness: Witness): Json {
  const [method, path] = witness.operation.split(' ') as [string, string];
  const operation = deref(doc, (doc.paths as any)[path][method.toLowerCase()]) as any;
  const [location, ...rest] = witness.part.split(':');
  if (location === 'body') return (deref(doc, operation.requestBody) as any).content[witness.mediaType!].schema ?? {};
  if (location === 'response') {
    const response = deref(doc, operation.responses[rest[0]!]) as any;
    if (rest[1] === 'header') return (deref(doc, response.headers[rest[2]!]) as any).schema;
    return response.content[witness.mediaType!].schema ?? {};
  }
  const parameters = [...((doc.paths as any)[path].parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) => deref(doc, p) as any);
  return parameters.find((p) => p.in === location && p.name === rest.join(':')).schema;
}

const ajvs = new WeakMap<JsonObject, Ajv2020>();

function validates(doc: JsonObject, schema: Json, value: Json): boolean {
  let ajv = ajvs.get(doc);
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, validateSchema: false, logger: false });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: 'https://test.invalid/doc' });
    ajvs.set(doc, ajv);
  }
  return ajv.validate(
    isObject(schema) && typeof schema.$ref === 'string' ? { $ref: `https://test.invalid/doc${schema.$ref}` } : { allOf: [rebase(schema)] },
    value,
  ) as boolean;
}

/** Local $refs of an inline schema, pointed at the document. */
function rebase(node: Json): Json {
  if (Array.isArray(node)) return node.map(rebase);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? `https://test.invalid/doc${value}` : rebase(value)]),
  );
}

/**
 * Cases whose breaking findings have no witness, and why: each is a change no JSON Schema
 * validator can see, or one outside JSON Schema 2020-12.
 */
const NO_WITNESS: Record<string, string> = {
  'discriminator property renamed (Question: type -> kind)': 'discriminator asserts nothing',
  'discriminator mapping retargeted (audio -> DocumentPart)': 'discriminator asserts nothing',
  'real spec: a new discriminator value for an existing content part (picture -> ImagePart)': 'discriminator asserts nothing',
  'response oneOf variant added (a new answer shape)': 'its discriminator mapping finding: discriminator asserts nothing',
  'request discriminator narrowed': 'discriminator asserts nothing',
  'response discriminator narrowed': 'discriminator asserts nothing',
  'request readOnly narrowed': 'readOnly asserts nothing',
  'request exclusiveMaximum narrowed (OpenAPI 3.0)': 'an OpenAPI 3.0 document: ajv (2020-12) cannot compile it',
  'response exclusiveMaximum narrowed (OpenAPI 3.0)': 'an OpenAPI 3.0 document: ajv (2020-12) cannot compile it',
  'request pattern changed in a way automata do not model here (a lookahead added): undecided': 'the lookahead pattern is not modelled',
  'response pattern changed in a way automata do not model here (a lookahead added): undecided': 'the lookahead pattern is not modelled',
};

describe('every breaking finding of the corpus has a witness that ajv confirms, or says why not', () => {
  test.each(allCases.map((c) => [c.name, c] as const))('%s', (name, corpusCase) => {
    const { old, changed } = documentsOf(corpusCase);
    let unproved = 0;
    for (const [from, to] of [
      [old, changed],
      [changed, old],
    ] as const) {
      for (const finding of diffDocuments(from, to).findings.filter((f) => f.class === 'breaking')) {
        if (!finding.witness) {
          expect(finding.witnessMissing, `${finding.ruleId} has neither a witness nor a reason`).toBeTruthy();
          const operational = finding.witnessMissing!.startsWith('the change is to the operation');
          if (!operational) expect(NO_WITNESS[name], `${finding.ruleId}: ${finding.witnessMissing}`).toBeDefined();
          if (!operational) unproved += 1;
          continue;
        }
        const { witness } = finding;
        const before = validates(from, partSchema(from, witness), witness.value);
        const after = validates(to, partSchema(to, witness), witness.value);
        const request = !witness.part.startsWith('response');
        expect({ before, after }, `${finding.ruleId}: ${JSON.stringify(witness).slice(0, 300)}`).toEqual(
          request ? { before: true, after: false } : { before: false, after: true },
        );
        expect(witnessLine(witness)).toMatch(request ? /^curl -X [A-Z]+ "\$BASE_URL"'\// : /^a response:/);
      }
    }
    // An entry of NO_WITNESS the gate now proves is stale: the list says only what is still true.
    if (NO_WITNESS[name]) expect(unproved, `${name} is listed without a witness, yet every breaking finding has one`).toBeGreaterThan(0);
  });
});
