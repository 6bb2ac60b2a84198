// Invalid decide requests, each made by breaking exactly one seed rule in a valid request: the
// rules a JSON Schema cannot state (media parts counted per family, the code of a video part, a
// body that is not JSON, a valid body sent as another type). What the spec's schemas state, the
// coverage phase derives keyword by keyword (../coverage/), so no list of it is kept here. Every
// entry names the rule it breaks, the seed sections the rule comes from and what the seed says
// a server answers: the status and code read from the spec (errorCode(code).statedStatus), or
// only "a 4xx with the seed's error body" where the seed states no status or code. Where the
// outcome itself is an open point, the expectation holds only the seed's bounds on it (`bounds`):
// nothing a reference choice says ever decides this MUST verdict.
import fc from 'fast-check';
import type { Capability } from '../harness/check.ts';
import type { MediaPartType } from '../harness/requests.ts';
import { errorCode } from '../spec/index.ts';
import { referenceableIds, type AssetPool } from './arbitraries/asset-pool.ts';
import { decideLimits } from './arbitraries/limits.ts';
import { escapedString, isWireObject, showWire, toJsonText, WireObject, wireObject, type WireValue } from './arbitraries/wire.ts';

/** What the seed says a server answers to the mutated request. */
export interface MutationExpectation {
  /** The codes the error body may carry; undefined: the seed names no code, any code will do. */
  codes?: readonly string[];
  /**
   * 'stated': the status the seed states for the code that came back (a 4xx for a code the seed
   * names only). '4xx': the seed states no status; any 4xx in the seed's error body.
   * 'refused-or-answered': whether to refuse is itself open; a refusal is a 4xx in the seed's
   * error body, and an answer is judged as the answer to the request the body stands for.
   */
  status: 'stated' | '4xx' | 'refused-or-answered';
  /** The open points whose seed-stated bounds (x-seed-bounds) the expectation enforces, and no more. */
  bounds?: readonly string[];
}

/** Where and how a mutation breaks its rule: `pick` chooses a question or a part, `variant` one of the mutation's variants. */
export interface MutationDraw {
  pick: number;
  variant: WireValue;
}

/** What is sent: a wire body, or raw text (for bodies that are not JSON). */
export interface MutatedBody {
  body: WireValue | { raw: string };
  contentType: string;
  /** For 'refused-or-answered': the valid request a server that accepts the body answers. */
  answeredAs?: WireObject;
}

export interface DecideMutation {
  /** Stable name, e.g. too-many-questions. */
  name: string;
  seedSections: readonly string[];
  /** The seed rule the mutated request breaks, in the seed's words. */
  rule: string;
  expected: MutationExpectation;
  /** Capabilities the mutation needs the target to claim. */
  requires?: readonly Capability[];
  /** Part types whose pooled assets the mutation references. */
  needsAssets?: readonly MediaPartType[];
  /** The variants of the mutation (field names, wrong values, content types…); one is drawn per case. */
  variants?: readonly WireValue[];
  apply(base: WireObject, draw: MutationDraw, pool: AssetPool): MutatedBody;
}

const JSON_TYPE = 'application/json';
const INVALID_REQUEST: MutationExpectation = { codes: ['INVALID_REQUEST'], status: 'stated' };
const json = (body: WireValue): MutatedBody => ({ body, contentType: JSON_TYPE });

/** The expectation in words, with statuses read from the spec, e.g. "status 400 with INVALID_REQUEST". */
export function describeExpectation(expected: MutationExpectation): string {
  const openPoint = expected.bounds ? ` (within open point ${expected.bounds.join(', ')})` : '';
  if (expected.status === 'refused-or-answered')
    return `a 4xx status with the seed's error body, or a 2xx answering the request as if sent as application/json; never a 5xx${openPoint}`;
  if (!expected.codes) return `a 4xx status with the seed's error body, never a 2xx or 5xx${openPoint}`;
  const parts = expected.codes.map((code) => {
    const stated = errorCode(code).statedStatus;
    return stated === null ? `${code} (a 4xx: its status is not stated)` : `status ${stated} with ${code}`;
  });
  return `${parts.join(', or ')}${openPoint}`;
}

// ---------------------------------------------------------------------------------------------
// Building blocks: each keeps the request valid while giving it what the mutation needs.

/** The context as a list of parts (a string context becomes one text part). */
function partsOf(base: WireObject): WireValue[] {
  const context = base.get('context');
  return Array.isArray(context) ? [...context] : [wireObject({ type: 'text', text: typeof context === 'string' ? context : 'Hello.' })];
}

function partType(part: WireValue): string | undefined {
  return isWireObject(part) && typeof part.get('type') === 'string' ? (part.get('type') as string) : undefined;
}

/** The parts with `part` put in at the picked place, or replacing the picked part when the list is full. */
function withPartAt(parts: WireValue[], pick: number, part: WireValue): WireValue[] {
  const copy = [...parts];
  if (copy.length < decideLimits.parts.max) copy.splice(pick % (copy.length + 1), 0, part);
  else copy[pick % copy.length] = part;
  return copy;
}

/** One part of `type` more than the request may carry, the rest of the context kept as far as the part count allows. */
function overMediaLimit(type: MediaPartType): DecideMutation {
  const { max, code } = decideLimits.media[type];
  return {
    name: `too-many-${type}-parts`,
    seedSections: ['7', '8'],
    rule: `At most ${max} ${type} part${max === 1 ? '' : 's'} per request; seed 7 names ${code} for it, but its condition is open, so INVALID_REQUEST (an invalid request) is as right`,
    expected: { codes: [code, 'INVALID_REQUEST'], status: 'stated', bounds: ['name-only-statuses'] },
    requires: ['multimodal', 'assets'],
    needsAssets: [type],
    apply: (base, { pick }, pool) => {
      const ids = referenceableIds(pool, type);
      const media = Array.from({ length: max + 1 }, (_, index) =>
        wireObject({ type, id: `${type}-${index + 1}`, asset_id: ids[(pick + index) % ids.length]! }),
      );
      const others = partsOf(base)
        .filter((part) => partType(part) !== type)
        .slice(0, decideLimits.parts.max - media.length);
      return json(base.with('context', [...others, ...media]));
    },
  };
}

// ---------------------------------------------------------------------------------------------

const [videoType, video] = Object.entries(decideLimits.unsupportedPartTypes)[0]!;

export const decideMutations: readonly DecideMutation[] = [
  overMediaLimit('image'),
  overMediaLimit('document'),
  overMediaLimit('audio'),
  {
    name: `${videoType}-part`,
    seedSections: ['1', '2.2', '7'],
    rule: `A part of type ${videoType} is rejected with ${video.status} ${video.code}`,
    expected: { codes: [video.code], status: 'stated' },
    requires: ['multimodal'],
    apply: (base, { pick }, pool) => {
      // A real asset where there is one, so that nothing but the part type is wrong.
      const ids = referenceableIds(pool, 'image');
      return json(
        base.with(
          'context',
          withPartAt(
            partsOf(base),
            pick,
            wireObject({ type: videoType, id: 'clip', asset_id: ids[pick % Math.max(1, ids.length)] ?? 'asset_conformance0000' }),
          ),
        ),
      );
    },
  },
  {
    name: 'malformed-json',
    seedSections: ['4', '4.1', '7'],
    rule: 'The body is JSON; a truncated body is an invalid request',
    expected: INVALID_REQUEST,
    apply: (base, { pick }) => {
      // Every proper prefix of the text of a JSON object is invalid JSON.
      const text = toJsonText(base);
      const characters = [...text];
      return { body: { raw: characters.slice(0, 1 + (pick % (characters.length - 1))).join('') }, contentType: JSON_TYPE };
    },
  },
  {
    name: 'wrong-content-type',
    seedSections: ['4', '7'],
    // The seed tells clients to send application/json and never says a server must refuse other
    // types (open point json-content-type): refusing and reading the JSON anyway are both allowed.
    rule: 'Send Content-Type: application/json; a valid body sent as another type is refused in the error body or answered as the valid request it is',
    expected: { status: 'refused-or-answered', bounds: ['json-content-type'] },
    variants: ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=decision', 'application/octet-stream'],
    apply: (base, { variant }) => ({ body: { raw: toJsonText(base) }, contentType: String(variant), answeredAs: base }),
  },
];

/** Draws where and how a mutation breaks its rule. */
export function mutationDraw(mutation: DecideMutation): fc.Arbitrary<MutationDraw> {
  const variant = mutation.variants && mutation.variants.length > 0 ? fc.constantFrom(...mutation.variants) : fc.constant(null);
  return fc.record({ pick: fc.nat({ max: 1000 }), variant });
}

/** The exact text a mutated body is sent as. */
export function mutatedText(mutated: MutatedBody): string {
  const { body } = mutated;
  return typeof body === 'object' && body !== null && !Array.isArray(body) && !(body instanceof WireObject) ? body.raw : toJsonText(body as WireValue);
}

/** A mutated body for a person: pretty JSON (unicode escaped), or the raw text as a string literal. */
export function showMutated(mutated: MutatedBody): string {
  const { body } = mutated;
  const shown =
    typeof body === 'object' && body !== null && !Array.isArray(body) && !(body instanceof WireObject)
      ? `raw text ${escapedString(body.raw.length > 400 ? `${body.raw.slice(0, 400)}…` : body.raw)}`
      : showWire(body as WireValue);
  return `${mutated.contentType === JSON_TYPE ? '' : `Content-Type: ${mutated.contentType}\n`}${shown}`;
}

/** Whether a mutation can run against a target with these capabilities and this pool. */
export function mutationApplies(mutation: DecideMutation, capabilities: ReadonlySet<Capability>, pool: AssetPool): boolean {
  return (
    (mutation.requires ?? []).every((capability) => capabilities.has(capability)) &&
    (mutation.needsAssets ?? []).every((type) => referenceableIds(pool, type).length > 0)
  );
}
