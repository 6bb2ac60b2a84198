// A suite's catalogue refuses a second check under an id it already has: the id is what --only,
// --skip, reports and replays name.
import { expect, test } from 'vitest';
import { checksById, type Check } from '../check.ts';
import { checks } from '../../conformance/registry.ts';
import { propertyChecks } from '../../property/registry.ts';

const check = (id: string, title: string): Check => ({ id, title, area: 'auth', level: 'MUST', seedSections: ['5'], run: async () => undefined });

test('unique ids: every check by its id', () => {
  const byId = checksById([check('A-ONE', 'first'), check('A-TWO', 'second')], 'conformance');
  expect([...byId.keys()]).toEqual(['A-ONE', 'A-TWO']);
  expect(byId.get('A-TWO')?.title).toBe('second');
});

test('a second check under the same id is refused, naming the suite and the id', () => {
  expect(() => checksById([check('A-ONE', 'first'), check('A-TWO', 'second'), check('A-ONE', 'again')], 'property')).toThrow(
    'Duplicate property check id A-ONE',
  );
});

test('both catalogues the kit ships have unique ids', () => {
  expect(checksById(checks, 'conformance').size).toBe(checks.length);
  expect(checksById(propertyChecks, 'property').size).toBe(propertyChecks.length);
});
