// Verdicts on open points: a server that differs from the reference only where the seed is open
// must never fail a MUST or SHOULD check. This is kept true by construction:
//   - every open point records an alternate choice and the bounds the seed still states;
//   - a check that depends on an open point (openPoint) is OBSERVE; a MUST or SHOULD check inside
//     one declares the open points whose seed-stated bounds it enforces (bounds);
//   - no MUST or SHOULD verdict takes an expectation from the reference choice: read from the
//     source, no such check (nor a module that shapes such verdicts) calls referenceChoice, reads
//     a reference status, or uses a module-level value derived from one.
// The behavioural side — both suites against the alternate profile — is cli/test/profiles.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { errorCode, openPoints } from '../../spec/index.ts';
import { decideMutations } from '../../property/mutations.ts';
import { propertyChecks } from '../../property/registry.ts';
import { checks as conformanceChecks } from '../registry.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const allChecks = [...conformanceChecks, ...propertyChecks];
const known = new Set(openPoints.map((point) => point.id));

/** Ways to read what the reference server chose: the choice itself, or a status that exists only because of it. */
const REFERENCE_READ = /\breferenceChoice\s*[<(]|\bchoiceOf\s*[<(]|\.referenceStatus\b|\.referenceChoice\b(?!\.summary)/;

/** Modules whose every export shapes MUST verdicts or valid inputs: they may not read a reference choice at all. */
const VERDICT_MODULES = [
  'harness/expect.ts',
  'harness/answer-rules.ts',
  'harness/requests.ts',
  'property/mutations.ts',
  'property/decide-properties.ts',
  'property/run-property.ts',
  ...readdirSync(join(root, 'property/arbitraries')).map((file) => `property/arbitraries/${file}`),
];

/** The files that declare checks. */
const CHECK_FILES = [
  ...readdirSync(join(root, 'conformance'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `conformance/${file}`),
  ...readdirSync(join(root, 'property'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `property/${file}`),
];

/** Top-level statements: each starts at a line in column 0 that is not a comment or a closing bracket. */
function topLevelStatements(source: string): string[] {
  const statements: string[] = [];
  for (const line of source.split('\n')) {
    if (/^[A-Za-z]/.test(line) || statements.length === 0) statements.push(line);
    else statements[statements.length - 1] += `\n${line}`;
  }
  return statements;
}

const declaredName = (statement: string) => /^(?:export\s+)?(?:const|let|(?:async\s+)?function)\s+(\w+)/.exec(statement)?.[1];
const usesAny = (text: string, names: ReadonlySet<string>) => [...names].some((name) => new RegExp(`\\b${name}\\b`).test(text));

/** The checks declared in a statement, each with its level and the text attributed to it (a builder's preamble goes to all). */
function declaredChecks(statement: string): Array<{ id: string; level: string; text: string }> {
  const starts = [...statement.matchAll(/\bid(?::\s*(['`])([^'`]+)\1)?,\s*\n\s*level:\s*'(MUST|SHOULD|OBSERVE)'/g)];
  const preamble = starts.length > 0 ? statement.slice(0, starts[0]!.index) : '';
  return starts.map((start, index) => ({
    id: start[2] ?? `${start[3]} check built from a variable id`,
    level: start[3]!,
    text: preamble + statement.slice(start.index, starts[index + 1]?.index ?? statement.length),
  }));
}

/** Checks (by id as written) whose MUST or SHOULD verdict reads the reference choice, directly or through a value of the same file. */
function referenceReadingVerdicts(source: string): string[] {
  const statements = topLevelStatements(source);
  const tainted = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const statement of statements) {
      const name = declaredName(statement);
      if (!name || tainted.has(name) || /\blevel:\s*'/.test(statement)) continue;
      if (REFERENCE_READ.test(statement) || usesAny(statement, tainted)) {
        tainted.add(name);
        grew = true;
      }
    }
  }
  return statements
    .flatMap(declaredChecks)
    .filter((check) => check.level !== 'OBSERVE' && (REFERENCE_READ.test(check.text) || usesAny(check.text, tainted)))
    .map((check) => check.id);
}

test('every open point has an alternate choice and the bounds the seed still states', () => {
  for (const point of openPoints) {
    expect(point.alternateChoice?.summary, `${point.id} has no x-alternate-choice`).toBeTruthy();
    expect(typeof point.alternateChoice.served, `${point.id}: x-alternate-choice.served`).toBe('boolean');
    expect(point.seedBounds.length, `${point.id} has no x-seed-bounds`).toBeGreaterThan(0);
  }
});

test('a check that depends on an open point is OBSERVE; bounds are declared by MUST or SHOULD checks and name open points', () => {
  for (const check of allChecks) {
    if (check.openPoint) expect(check.level, `${check.id} depends on open point ${check.openPoint}`).toBe('OBSERVE');
    for (const id of check.bounds ?? []) expect(known.has(id), `${check.id}: bounds ${id}`).toBe(true);
    if (check.bounds) expect(check.level, `${check.id} declares bounds`).not.toBe('OBSERVE');
  }
});

test('a mutation expecting a name-only code also accepts the stated code of any invalid request, within name-only-statuses', () => {
  for (const mutation of decideMutations) {
    for (const id of mutation.expected.bounds ?? []) expect(known.has(id), `${mutation.name}: bounds ${id}`).toBe(true);
    const nameOnly = (mutation.expected.codes ?? []).filter((code) => errorCode(code).statedStatus === null);
    if (nameOnly.length === 0) continue;
    expect(mutation.expected.codes, `${mutation.name} expects only ${nameOnly.join(', ')}, whose condition is open`).toContain('INVALID_REQUEST');
    expect(mutation.expected.bounds, mutation.name).toContain('name-only-statuses');
  }
});

test('no MUST or SHOULD check, and no module shaping their verdicts, reads a reference choice', () => {
  const offenders: string[] = [];
  for (const file of CHECK_FILES) offenders.push(...referenceReadingVerdicts(readFileSync(join(root, file), 'utf8')).map((id) => `${file}: ${id}`));
  for (const file of VERDICT_MODULES) if (REFERENCE_READ.test(readFileSync(join(root, file), 'utf8'))) offenders.push(file);
  expect(offenders).toEqual([]);
});

test('the source reading finds reference choices in MUST checks, directly, through a module value, and in a builder', () => {
  const direct = `export const c = area('x', [
  {
    id: 'X-OBSERVED',
    level: 'OBSERVE',
    async run(t) { t.observe({ summary: String(referenceChoice('decide-success-status', 'status')) }); },
  },
  {
    id: 'X-DIRECT',
    level: 'MUST',
    async run(t) { expectStatus(await t.a.decide(body), referenceChoice<number>('decide-success-status', 'status')); },
  },
]);`;
  const throughValue = `const status = errorCode('NOT_FOUND').referenceStatus;
const expected = () => status;
export const c = area('x', [
  {
    id: 'X-VALUE',
    level: 'SHOULD',
    async run(t) { expectStatus(await t.a.decide(body), expected()); },
  },
]);`;
  const builder = `const built = ['a'].map((name) => {
  const limit = referenceChoice<number>('size-units', name);
  return {
    id: \`X-\${name}\`,
    level: 'MUST',
    async run(t) { expectStatus(await t.a.upload(bytesOf(limit)), 413); },
  };
});`;
  expect(referenceReadingVerdicts(direct)).toEqual(['X-DIRECT']);
  expect(referenceReadingVerdicts(throughValue)).toEqual(['X-VALUE']);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the id as the source text writes it, template placeholder included.
  expect(referenceReadingVerdicts(builder)).toEqual(['X-${name}']);
});
