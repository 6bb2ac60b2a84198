// Compares two OpenAPI documents: pairs their paths and operations, and runs every rule family
// of the registry at its stage, each through a reporter that accepts only the family's own
// rules. The families then amend the findings (open points, hard-rule sections, the
// major-version rule of seed 9.2).
import type { JsonObject } from '../spec/index.ts';
import type { Run, RuleFamily, Stage } from './family.ts';
import { decideBreaking } from './decide.ts';
import { FindingCollector, reporterFor, type Reporter } from './findings.ts';
import type { ChangeClass, Finding } from './model.ts';
import type { OperationContext, OperationPair } from './operation-context.ts';
import { operationPairs, pairPaths } from './path-pairs.ts';
import { ruleFamilies } from './registry.ts';
import { compareSchemas, type SchemaJudge } from './schema-walk.ts';
import { majorVersions, type MajorVersions } from './version.ts';

export interface DiffResult {
  findings: Finding[];
  majors: MajorVersions;
  counts: Record<ChangeClass, number>;
}

const CLASS_ORDER: Record<ChangeClass, number> = { breaking: 0, 'non-breaking': 1, info: 2 };

type FamilyOf<S extends Stage> = Extract<RuleFamily, { stage: S }>;
const atStage = <S extends Stage>(families: readonly RuleFamily[], stage: S) => families.filter((f): f is FamilyOf<S> => f.stage === stage);

export interface DiffOptions {
  /**
   * Decide each breaking finding on the value sets (decide.ts): witnesses, changes of shape only,
   * proved inclusions. On by default; the kit's tests of the keyword rules alone turn it off.
   */
  decide?: boolean;
}

/** `families` is the registry; a test passes others to show that a family cannot report a rule it does not list. */
export function diffDocuments(old: JsonObject, next: JsonObject, families: readonly RuleFamily[] = ruleFamilies, options: DiffOptions = {}): DiffResult {
  const pair = { old, new: next };
  const majors = majorVersions(old, next);
  const run: Run = { pair, majors, paths: pairPaths(pair, majors) };
  const collector = new FindingCollector();
  const reporters = new Map(families.map((family) => [family, reporterFor(collector, family)]));
  const reporterOf = (family: RuleFamily): Reporter => reporters.get(family)!;

  for (const family of atStage(families, 'document')) family.compare({ ...run, collector: reporterOf(family) });
  const schemaJudges = atStage(families, 'schema').map((family) => ({ compare: family.compare, collector: reporterOf(family) }));
  const operationFamilies = atStage(families, 'operation');
  const reached = new Set<string>();
  for (const operation of operationPairs(pair, run.paths)) compareOperation(operation, operationFamilies, schemaJudges, reporterOf, reached);
  const collected = collector.findings();
  for (const family of atStage(families, 'collected')) family.compare({ ...run, collector: reporterOf(family), findings: collected, reached });

  const findings = collector.findings();
  if (options.decide !== false) decideBreaking(pair, findings, (finding) => collector.sitesOf(finding));
  for (const family of families) family.amend?.(run, findings);
  findings.sort((a, b) => CLASS_ORDER[a.class] - CLASS_ORDER[b.class] || a.ruleId.localeCompare(b.ruleId) || a.newPointer.localeCompare(b.newPointer));
  const counts = { breaking: 0, 'non-breaking': 0, info: 0 };
  for (const finding of findings) counts[finding.class]++;
  return { findings, majors, counts };
}

function compareOperation(
  operation: OperationPair,
  families: readonly FamilyOf<'operation'>[],
  schemaJudges: readonly SchemaJudge[],
  reporterOf: (family: RuleFamily) => Reporter,
  reached: Set<string>,
): void {
  // One visited set per operation and side: a recursive schema stops, and each use of a shared
  // component is still judged for every operation and side that reaches it.
  const visited = { request: new Set<string>(), response: new Set<string>() };
  const walkSchemas: OperationContext['walkSchemas'] = (side, part, old, next) =>
    compareSchemas(
      { pair: operation.pair, side, operation: operation.label, visited: visited[side], part: { ...part, operation: operation.label, side, old, new: next } },
      schemaJudges,
      old,
      next,
    );
  for (const family of families) family.compare({ ...operation, collector: reporterOf(family), walkSchemas });
  // Every walked pair is keyed "old pointer \0 new pointer" (schema-walk.ts).
  for (const key of [...visited.request, ...visited.response]) for (const pointer of key.split('\u0000')) reached.add(pointer);
}
