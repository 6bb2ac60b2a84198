// Compares two OpenAPI documents: pairs their paths and operations, lets each rule family judge
// what changed, and applies the major-version rule of seed 9.2.
import { isObject, type Json, type JsonObject } from '../spec/index.ts';
import { FindingCollector } from './findings.ts';
import type { ChangeClass, DocumentPair, Finding } from './model.ts';
import type { OperationContext } from './operation-context.ts';
import { child } from './pointer.ts';
import { compareErrorCodes } from './rules/error-codes.ts';
import { compareHardRuleSchemas, tagHardRuleSections, tagOpenPoints } from './rules/hard-rules.ts';
import { compareMediaLimits } from './rules/media-limits.ts';
import { compareOpenPoints } from './rules/open-points.ts';
import { compareOperationBasics, compareSecuritySchemes, RULES as OPERATION_RULES } from './rules/operations.ts';
import { compareParameters } from './rules/parameters.ts';
import { compareRequestBody } from './rules/request-body.ts';
import { compareResponses } from './rules/responses.ts';
import { compareSchemaComposition } from './rules/schema-composition.ts';
import { compareSchemaConstraints } from './rules/schema-constraints.ts';
import { compareSchemaProperties } from './rules/schema-properties.ts';
import { compareSchemaValues } from './rules/schema-values.ts';
import { compareSeedLimits } from './rules/seed-limits.ts';
import { compareVersions } from './rules/versioning.ts';
import { compareSchemas, type SchemaRuleFamily } from './schema-walk.ts';
import { majorVersions, pathKey, type MajorVersions } from './version.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const SCHEMA_FAMILIES: readonly SchemaRuleFamily[] = [compareSchemaValues, compareSchemaConstraints, compareSchemaProperties, compareSchemaComposition];

export interface DiffResult {
  findings: Finding[];
  majors: MajorVersions;
  counts: Record<ChangeClass, number>;
}

const CLASS_ORDER: Record<ChangeClass, number> = { breaking: 0, 'non-breaking': 1, info: 2 };

export function diffDocuments(old: JsonObject, next: JsonObject): DiffResult {
  const pair: DocumentPair = { old, new: next };
  const collector = new FindingCollector();
  const majors = majorVersions(old, next);

  compareVersions(pair, majors, collector);
  comparePaths(pair, majors, collector);
  compareSecuritySchemes(pair, collector);
  compareSeedLimits(pair, collector);
  compareOpenPoints(pair, collector);
  compareErrorCodes(pair, collector);
  compareMediaLimits(pair, collector);
  compareHardRuleSchemas(pair, collector, collector.findings());

  const findings = collector.findings();
  tagHardRuleSections(pair, findings);
  tagOpenPoints(pair, findings);
  if (majors.changed) {
    for (const finding of findings.filter((f) => f.class === 'breaking')) {
      finding.downgradedFrom = 'breaking';
      finding.class = 'info';
    }
  }
  findings.sort((a, b) => CLASS_ORDER[a.class] - CLASS_ORDER[b.class] || a.ruleId.localeCompare(b.ruleId) || a.newPointer.localeCompare(b.newPointer));
  const counts = { breaking: 0, 'non-breaking': 0, info: 0 };
  for (const finding of findings) counts[finding.class]++;
  return { findings, majors, counts };
}

function pathsOf(doc: JsonObject, acrossMajors: boolean): Map<string, { path: string; item: JsonObject }> {
  const paths = isObject(doc.paths) ? doc.paths : {};
  return new Map(Object.entries(paths).flatMap(([path, item]) => (isObject(item) ? [[pathKey(path, acrossMajors), { path, item }] as const] : [])));
}

function comparePaths(pair: DocumentPair, majors: MajorVersions, collector: FindingCollector): void {
  const before = pathsOf(pair.old, majors.changed);
  const after = pathsOf(pair.new, majors.changed);
  for (const [key, was] of before) {
    const now = after.get(key);
    const oldPathPointer = child('/paths', was.path);
    if (!now) {
      collector.report(OPERATION_RULES.pathRemoved, { oldPointer: oldPathPointer, newPointer: '/paths', operation: was.path, message: `Path ${was.path} was removed with all its operations (${METHODS.filter((m) => isObject(was.item[m])).map((m) => m.toUpperCase()).join(', ')}).` });
      continue;
    }
    const newPathPointer = child('/paths', now.path);
    for (const method of METHODS) {
      const oldOperation = was.item[method];
      const newOperation = now.item[method];
      const label = `${method.toUpperCase()} ${now.path}`;
      if (isObject(oldOperation) && !isObject(newOperation)) {
        collector.report(OPERATION_RULES.operationRemoved, { oldPointer: child(oldPathPointer, method), newPointer: newPathPointer, operation: `${method.toUpperCase()} ${was.path}`, message: `${method.toUpperCase()} ${was.path} was removed.` });
      } else if (!isObject(oldOperation) && isObject(newOperation)) {
        collector.report(OPERATION_RULES.operationAdded, { oldPointer: oldPathPointer, newPointer: child(newPathPointer, method), operation: label, message: `${label} was added.` });
      } else if (isObject(oldOperation) && isObject(newOperation)) {
        compareOperation({
          pair,
          label,
          collector,
          old: { operation: oldOperation, pointer: child(oldPathPointer, method), pathParameters: listOf(was.item.parameters), pathParametersPointer: child(oldPathPointer, 'parameters') },
          new: { operation: newOperation, pointer: child(newPathPointer, method), pathParameters: listOf(now.item.parameters), pathParametersPointer: child(newPathPointer, 'parameters') },
        });
      }
    }
  }
  for (const [key, now] of after) {
    if (!before.has(key)) collector.report(OPERATION_RULES.pathAdded, { oldPointer: '/paths', newPointer: child('/paths', now.path), operation: now.path, message: `Path ${now.path} was added.` });
  }
}

const listOf = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : []);

function compareOperation(base: Omit<OperationContext, 'walkSchemas'>): void {
  // One visited set per operation and side: a recursive schema stops, and each use of a shared
  // component is still judged for every operation and side that reaches it.
  const visited = { request: new Set<string>(), response: new Set<string>() };
  const ctx: OperationContext = {
    ...base,
    walkSchemas: (side, old, next) => compareSchemas({ pair: base.pair, side, operation: base.label, collector: base.collector, visited: visited[side] }, SCHEMA_FAMILIES, old, next),
  };
  compareOperationBasics(ctx);
  compareParameters(ctx);
  compareRequestBody(ctx);
  compareResponses(ctx);
}
