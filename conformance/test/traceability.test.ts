// The catalogue is traced to the seed: every seed section with a hard rule (from the spec's
// x-seed-sections index) has at least one MUST check, every cited section exists, every
// OBSERVE check names an open point of the spec, and ids are unique and stable in form.
import { expect, test } from 'vitest';
import { hardRuleSections, openPoints, seedSections } from '../../spec/index.ts';
import { checks } from '../registry.ts';

test('every seed section with a hard rule has a MUST check', () => {
  const covered = new Set(checks.filter((check) => check.level === 'MUST').flatMap((check) => check.seedSections));
  const missing = hardRuleSections.filter((section) => !covered.has(section.id)).map((section) => `${section.id} ${section.title}`);
  expect(missing).toEqual([]);
});

test('checks cite only sections of the seed', () => {
  const known = new Set(seedSections.map((section) => section.id));
  for (const check of checks) for (const section of check.seedSections) expect(known.has(section), `${check.id} cites ${section}`).toBe(true);
});

test('OBSERVE checks name an open point of the spec; open points named anywhere exist', () => {
  const known = new Set(openPoints.map((point) => point.id));
  for (const check of checks) {
    if (check.level === 'OBSERVE') expect(check.openPoint, `${check.id} names no open point`).toBeDefined();
    if (check.openPoint) expect(known.has(check.openPoint), `${check.id}: ${check.openPoint}`).toBe(true);
  }
});

test('ids are unique, upper-case and hyphenated; every check has a title and a seed section', () => {
  expect(new Set(checks.map((check) => check.id)).size).toBe(checks.length);
  for (const check of checks) {
    expect(check.id).toMatch(/^[A-Z0-9]+(-[A-Z0-9]+)+$/);
    expect(check.title.length).toBeGreaterThan(10);
    expect(check.seedSections.length).toBeGreaterThan(0);
  }
});
