// `decision-conformance list-checks`: the catalogue of the selected suites, from their registries alone.
import type { Suite } from './args.ts';
import { SUITE_CHECKS } from './suites.ts';

export function listChecks(format: 'text' | 'json', suites: readonly Suite[]): string {
  const entries = suites.flatMap((suite) => SUITE_CHECKS[suite].checks.map((check) => ({ suite, check })));
  if (format === 'json') {
    return JSON.stringify(
      entries.map(({ suite, check: { id, level, area, seedSections, title, openPoint, requires } }) => ({
        id,
        suite,
        level,
        area,
        seed_sections: seedSections,
        title,
        open_point: openPoint,
        requires,
      })),
      null,
      2,
    );
  }
  const width = Math.max(...entries.map(({ check }) => check.id.length));
  return suites
    .map((suite) => {
      const { checks } = SUITE_CHECKS[suite];
      const lines = checks.map((check) => `${check.id.padEnd(width)}  ${check.level.padEnd(7)}  §${check.seedSections.join(',').padEnd(12)}  ${check.title}`);
      return [`${suite} (${checks.length} checks)`, ...lines].join('\n');
    })
    .join('\n\n');
}
