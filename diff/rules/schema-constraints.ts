// Bounds and patterns. A narrowed bound (a maximum down, a minimum up, a bound where there was
// none) rejects requests that passed before; a widened one lets a server send what clients
// were told could not come.
import { sided } from '../findings.ts';
import type { RuleFamily } from '../family.ts';
import type { ChangeClass, Rule } from '../model.ts';
import { bySide, reportAt, type SchemaRuleFamily } from '../schema-walk.ts';

interface Bound {
  keyword: string;
  /** max: a smaller value narrows; min: a larger value narrows. */
  kind: 'max' | 'min';
  stem: string;
}

const BOUNDS: readonly Bound[] = [
  { keyword: 'maxLength', kind: 'max', stem: 'max-length' },
  { keyword: 'minLength', kind: 'min', stem: 'min-length' },
  { keyword: 'maximum', kind: 'max', stem: 'maximum' },
  { keyword: 'minimum', kind: 'min', stem: 'minimum' },
  { keyword: 'exclusiveMaximum', kind: 'max', stem: 'exclusive-maximum' },
  { keyword: 'exclusiveMinimum', kind: 'min', stem: 'exclusive-minimum' },
  { keyword: 'maxItems', kind: 'max', stem: 'max-items' },
  { keyword: 'minItems', kind: 'min', stem: 'min-items' },
  { keyword: 'maxProperties', kind: 'max', stem: 'max-properties' },
  { keyword: 'minProperties', kind: 'min', stem: 'min-properties' },
];

const NARROWED: Record<'request' | 'response', ChangeClass> = { request: 'breaking', response: 'non-breaking' };
const WIDENED: Record<'request' | 'response', ChangeClass> = { request: 'non-breaking', response: 'breaking' };

/** For each bound, its narrowing and widening rule per side, e.g. request-max-length-decreased. */
const BOUND_RULES = new Map(
  BOUNDS.map((bound) => {
    const narrowWord = bound.kind === 'max' ? 'decreased' : 'increased';
    const widenWord = bound.kind === 'max' ? 'increased' : 'decreased';
    return [
      bound.keyword,
      {
        narrowed: sided(`${bound.stem}-${narrowWord}`, `${bound.keyword} ${narrowWord} or added (narrowed)`, NARROWED.request, NARROWED.response),
        widened: sided(`${bound.stem}-${widenWord}`, `${bound.keyword} ${widenWord} or removed (widened)`, WIDENED.request, WIDENED.response),
      },
    ] as const;
  }),
);

const PATTERN = {
  added: sided('pattern-added', 'a pattern now restricts the string', 'breaking', 'non-breaking'),
  changed: sided('pattern-changed', 'the pattern changed', 'breaking', 'breaking'),
  removed: sided('pattern-removed', 'the pattern no longer restricts the string', 'non-breaking', 'breaking'),
};

const FAMILY_RULES: Rule[] = [
  ...[...BOUND_RULES.values()].flatMap((pair) => [pair.narrowed.request, pair.narrowed.response, pair.widened.request, pair.widened.response]),
  ...Object.values(PATTERN).flatMap((pair) => [pair.request, pair.response]),
];

const compareSchemaConstraints: SchemaRuleFamily = (walk, old, next) => {
  for (const bound of BOUNDS) {
    const before = old.schema[bound.keyword];
    const after = next.schema[bound.keyword];
    if (before === after) continue;
    const wasNumber = typeof before === 'number';
    const isNumber = typeof after === 'number';
    if (!wasNumber && !isNumber) continue;
    const narrowed = !wasNumber || (isNumber && (bound.kind === 'max' ? after < before : after > before));
    const rules = BOUND_RULES.get(bound.keyword)!;
    const text = !wasNumber
      ? `now has ${bound.keyword} ${String(after)}`
      : !isNumber
        ? `no longer has ${bound.keyword} (was ${String(before)})`
        : `${bound.keyword} went from ${String(before)} to ${String(after)}`;
    reportAt(walk, bySide(walk, narrowed ? rules.narrowed : rules.widened), old, next, `${next.pointer} ${text}.`);
  }

  const before = old.schema.pattern;
  const after = next.schema.pattern;
  if (before === after) return;
  if (before === undefined) reportAt(walk, bySide(walk, PATTERN.added), old, next, `${next.pointer} must now match ${String(after)}.`);
  else if (after === undefined) reportAt(walk, bySide(walk, PATTERN.removed), old, next, `${next.pointer} no longer has to match ${String(before)}.`);
  else reportAt(walk, bySide(walk, PATTERN.changed), old, next, `${next.pointer} pattern changed from ${String(before)} to ${String(after)}.`);
};

export const schemaConstraintFamily: RuleFamily = { name: 'schema constraints', stage: 'schema', rules: FAMILY_RULES, compare: compareSchemaConstraints };
