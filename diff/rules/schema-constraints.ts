// Bounds, divisors, uniqueness and patterns. A narrowed bound (a maximum down, a minimum up, a
// bound where there was none) rejects requests that passed before; a widened one lets a server
// send what clients were told could not come. The bounds are the keyword table's (keywords.ts).
import { sided } from '../findings.ts';
import type { RuleFamily } from '../family.ts';
import { BOUNDS } from '../keywords.ts';
import type { ChangeClass, Rule } from '../model.ts';
import { comparePatterns } from '../pattern-languages.ts';
import { bySide, reportAt, type SchemaNode, type SchemaRuleFamily, type SchemaWalk } from '../schema-walk.ts';

const NARROWED: Record<'request' | 'response', ChangeClass> = { request: 'breaking', response: 'non-breaking' };
const WIDENED: Record<'request' | 'response', ChangeClass> = { request: 'non-breaking', response: 'breaking' };

/** For each bound, its narrowing and widening rule per side, e.g. request-max-length-decreased. */
const BOUND_RULES = new Map(
  BOUNDS.map((bound) => {
    const narrowWord = bound.narrows === 'smaller' ? 'decreased' : 'increased';
    const widenWord = bound.narrows === 'smaller' ? 'increased' : 'decreased';
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
  changed: sided('pattern-changed', 'the pattern changed and provably admits a string it did not, and no longer one it did', 'breaking', 'breaking'),
  undecided: sided('pattern-undecided', 'the pattern changed and whether it admits more or fewer strings cannot be decided', 'breaking', 'breaking'),
  removed: sided('pattern-removed', 'the pattern no longer restricts the string', 'non-breaking', 'breaking'),
  narrowed: sided('pattern-narrowed', 'the pattern changed and provably admits no string it did not admit before', 'breaking', 'non-breaking'),
  widened: sided('pattern-widened', 'the pattern changed and provably admits every string it admitted before', 'non-breaking', 'breaking'),
  rewritten: sided('pattern-rewritten', 'the pattern was rewritten and provably admits the same strings', 'non-breaking', 'non-breaking'),
};

const OTHER = {
  uniqueAdded: sided('unique-items-added', 'array items must now be unique (uniqueItems)', 'breaking', 'non-breaking'),
  uniqueRemoved: sided('unique-items-removed', 'array items no longer need to be unique', 'non-breaking', 'breaking'),
  divisorNarrowed: sided('multiple-of-narrowed', 'multipleOf added, or changed to a multiple of the old divisor (narrowed)', 'breaking', 'non-breaking'),
  divisorWidened: sided('multiple-of-widened', 'multipleOf removed, or changed to a divisor of the old one (widened)', 'non-breaking', 'breaking'),
  divisorChanged: sided('multiple-of-changed', 'multipleOf changed to a value neither a multiple nor a divisor of the old one', 'breaking', 'breaking'),
};

const FAMILY_RULES: Rule[] = [
  ...[...BOUND_RULES.values()].flatMap((pair) => [pair.narrowed.request, pair.narrowed.response, pair.widened.request, pair.widened.response]),
  ...[...Object.values(PATTERN), ...Object.values(OTHER)].flatMap((pair) => [pair.request, pair.response]),
];

/** Whether `a` is a whole multiple of `b`, allowing for binary fractions (0.3 of 0.1). */
function isMultiple(a: number, b: number): boolean {
  const ratio = a / b;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
}

const compareSchemaConstraints: SchemaRuleFamily = (walk, old, next) => {
  for (const bound of BOUNDS) {
    const rawBefore = old.schema[bound.keyword];
    const rawAfter = next.schema[bound.keyword];
    if (rawBefore === rawAfter) continue;
    const rules = BOUND_RULES.get(bound.keyword)!;
    // OpenAPI 3.0 writes the exclusive bounds as booleans beside minimum / maximum: true narrows.
    if (typeof rawBefore === 'boolean' || typeof rawAfter === 'boolean') {
      const narrowed = rawAfter === true;
      const text = `${bound.keyword} went from ${String(rawBefore ?? false)} to ${String(rawAfter ?? false)}`;
      if ((rawBefore === true) !== (rawAfter === true))
        reportAt(walk, bySide(walk, narrowed ? rules.narrowed : rules.widened), old, next, `${next.pointer} ${text}.`);
      continue;
    }
    // An absent keyword with a default (minLength 0, minContains 1) bounds like its default.
    const before = rawBefore ?? bound.default;
    const after = rawAfter ?? bound.default;
    if (before === after) continue;
    const wasNumber = typeof before === 'number';
    const isNumber = typeof after === 'number';
    if (!wasNumber && !isNumber) continue;
    const narrowed = !wasNumber || (isNumber && (bound.narrows === 'smaller' ? after < before : after > before));
    const text = !wasNumber
      ? `now has ${bound.keyword} ${String(after)}`
      : !isNumber
        ? `no longer has ${bound.keyword} (was ${String(before)})`
        : `${bound.keyword} went from ${String(before)} to ${String(after)}`;
    reportAt(walk, bySide(walk, narrowed ? rules.narrowed : rules.widened), old, next, `${next.pointer} ${text}.`);
  }

  const wasUnique = old.schema.uniqueItems === true;
  const isUnique = next.schema.uniqueItems === true;
  if (!wasUnique && isUnique) reportAt(walk, bySide(walk, OTHER.uniqueAdded), old, next, `${next.pointer} now requires unique items.`);
  if (wasUnique && !isUnique) reportAt(walk, bySide(walk, OTHER.uniqueRemoved), old, next, `${next.pointer} no longer requires unique items.`);

  compareDivisors(walk, old, next);
  comparePattern(walk, old, next);
};

function compareDivisors(walk: SchemaWalk, old: SchemaNode, next: SchemaNode): void {
  const before = old.schema.multipleOf;
  const after = next.schema.multipleOf;
  if (before === after) return;
  const wasNumber = typeof before === 'number' && before > 0;
  const isNumber = typeof after === 'number' && after > 0;
  if (!wasNumber && !isNumber) return;
  const rule = !wasNumber
    ? OTHER.divisorNarrowed
    : !isNumber
      ? OTHER.divisorWidened
      : isMultiple(after, before)
        ? OTHER.divisorNarrowed
        : isMultiple(before, after)
          ? OTHER.divisorWidened
          : OTHER.divisorChanged;
  const text = !wasNumber
    ? `now must be a multiple of ${String(after)}`
    : !isNumber
      ? `no longer must be a multiple of ${String(before)}`
      : `multipleOf went from ${String(before)} to ${String(after)}`;
  reportAt(walk, bySide(walk, rule), old, next, `${next.pointer} ${text}.`);
}

function comparePattern(walk: SchemaWalk, old: SchemaNode, next: SchemaNode): void {
  const before = old.schema.pattern;
  const after = next.schema.pattern;
  if (before === after) return;
  if (before === undefined) reportAt(walk, bySide(walk, PATTERN.added), old, next, `${next.pointer} must now match ${String(after)}.`);
  else if (after === undefined) reportAt(walk, bySide(walk, PATTERN.removed), old, next, `${next.pointer} no longer has to match ${String(before)}.`);
  else {
    const change = `${next.pointer} pattern changed from ${String(before)} to ${String(after)}`;
    if (typeof before !== 'string' || typeof after !== 'string') {
      reportAt(walk, bySide(walk, PATTERN.undecided), old, next, `${change}; a pattern that is not a string cannot be compared.`);
      return;
    }
    // The strings that prove a direction: the shortest one each language has that the other lacks (pattern-languages.ts).
    const compared = comparePatterns(before, after);
    const lost = (text: string) => `${JSON.stringify(text)} matched before and no longer does`;
    const gained = (text: string) => `${JSON.stringify(text)} matches now and did not before`;
    if (compared.direction === 'wider')
      reportAt(walk, bySide(walk, PATTERN.widened), old, next, `${change}, which admits every string it admitted before; e.g. ${gained(compared.gained)}.`);
    else if (compared.direction === 'narrower')
      reportAt(walk, bySide(walk, PATTERN.narrowed), old, next, `${change}, which admits no string it did not admit before; e.g. ${lost(compared.lost)}.`);
    else if (compared.direction === 'same') reportAt(walk, bySide(walk, PATTERN.rewritten), old, next, `${change}, which admits the same strings.`);
    else if (compared.direction === 'different')
      reportAt(walk, bySide(walk, PATTERN.changed), old, next, `${change}: ${lost(compared.lost)}, and ${gained(compared.gained)}.`);
    else reportAt(walk, bySide(walk, PATTERN.undecided), old, next, `${change}; undecided: ${compared.reason}.`);
  }
}

export const schemaConstraintFamily: RuleFamily = { name: 'schema constraints', stage: 'schema', rules: FAMILY_RULES, compare: compareSchemaConstraints };
