// `decision-conformance list-checks`: the catalogue, from the registry alone.
import { checks } from '../conformance/registry.ts';

export function listChecks(format: 'text' | 'json'): string {
  if (format === 'json') {
    return JSON.stringify(checks.map(({ id, level, area, seedSections, title, openPoint, requires }) => ({ id, level, area, seed_sections: seedSections, title, open_point: openPoint, requires })), null, 2);
  }
  const width = Math.max(...checks.map((check) => check.id.length));
  return checks
    .map((check) => `${check.id.padEnd(width)}  ${check.level.padEnd(7)}  §${check.seedSections.join(',').padEnd(12)}  ${check.title}`)
    .join('\n');
}
