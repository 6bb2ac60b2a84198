// `decision-conformance list-checks`: the catalogue of the selected suites, from their registries
// alone, then the response rules that judge every response of any run.
import type { Suite } from '../api/run-options.ts';
import { SUITE_CHECKS } from '../api/suites.ts';
import { responseRules } from '../harness/response-rules/catalogue.ts';

export function listChecks(format: 'text' | 'json', suites: readonly Suite[]): string {
  const entries = suites.flatMap((suite) => SUITE_CHECKS[suite].checks.map((check) => ({ suite, check })));
  if (format === 'json') {
    return JSON.stringify(
      [
        ...entries.map(({ suite, check: { id, level, area, seedSections, title, openPoint, requires } }) => ({
          id,
          suite,
          level,
          area,
          seed_sections: seedSections,
          title,
          open_point: openPoint,
          requires,
        })),
        ...responseRules.map(({ id, level, seedSections, title, appliesTo, openPoint }) => ({
          id,
          suite: 'response-rules',
          level,
          area: 'response-rules',
          seed_sections: [...seedSections],
          title,
          applies_to: appliesTo,
          open_point: openPoint,
        })),
      ],
      null,
      2,
    );
  }
  const width = Math.max(...entries.map(({ check }) => check.id.length), ...responseRules.map((rule) => rule.id.length));
  const row = (id: string, level: string, seedSections: readonly string[], title: string) =>
    `${id.padEnd(width)}  ${level.padEnd(7)}  §${seedSections.join(',').padEnd(12)}  ${title}`;
  return [
    ...suites.map((suite) => {
      const { checks } = SUITE_CHECKS[suite];
      return [`${suite} (${checks.length} checks)`, ...checks.map((check) => row(check.id, check.level, check.seedSections, check.title))].join('\n');
    }),
    [
      `response rules (${responseRules.length} rules, judging every response of every run)`,
      ...responseRules.map((rule) => row(rule.id, rule.level, rule.seedSections, rule.title)),
    ].join('\n'),
  ].join('\n\n');
}
