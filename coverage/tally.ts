// The run's `coverage` object: every request keyword the spec has, per operation, with the
// positive and negative cases the run sent for it; the HTTP dimensions tried; the status and
// code pairs each operation answered beside those the spec documents; and what was left untried,
// with why. A keyword of the spec that no case reached shows with zero counts, never not at all.
import type { CheckResult } from '../harness/check.ts';
import type { CoverageLocation, CoverageReport, DimensionCoverage, KeywordCoverage, UntestableEntry } from '../harness/coverage.ts';
import { constraintKeywords, jsonRequestSchema, operations, requestBodySchemaName, requestParameters, resolvedSchema, schemaNodes } from '../spec/index.ts';

/** Every request keyword of every operation of the spec, with zero counts. */
export function specKeywords(): KeywordCoverage[] {
  const keywords: KeywordCoverage[] = [];
  for (const op of operations) {
    const root = jsonRequestSchema(op.operationId);
    if (root)
      for (const node of schemaNodes(root))
        for (const keyword of constraintKeywords(node.schema))
          keywords.push({ operation: op.operationId, location: 'body', pointer: node.pointer, keyword, positive: 0, negative: 0 });
    // A body that is not JSON (the raw file of an upload): the keywords of its schema, the same for every media type.
    const raw = !root && op.requestMediaTypes.length > 0 ? requestBodySchemaName(op.operationId, op.requestMediaTypes[0]) : undefined;
    if (raw)
      for (const keyword of constraintKeywords(resolvedSchema({ $ref: `#/components/schemas/${raw}` }).schema))
        keywords.push({ operation: op.operationId, location: 'body', pointer: '/', keyword, positive: 0, negative: 0 });
    for (const parameter of requestParameters(op.operationId)) {
      const location: CoverageLocation = parameter.in === 'cookie' ? 'header' : parameter.in;
      for (const keyword of constraintKeywords(resolvedSchema(parameter.schema).schema))
        keywords.push({ operation: op.operationId, location, pointer: parameter.name, keyword, positive: 0, negative: 0 });
    }
  }
  return keywords;
}

/**
 * Keywords no case can try, whatever the target, and why: the spec's own facts, not a run's. (What
 * a run could not try on its target, a capability it does not claim, comes from the checks.)
 */
export function untestableKeywords(): UntestableEntry[] {
  return specKeywords().flatMap((entry) => {
    if (entry.location !== 'body' && entry.keyword === 'type')
      return [
        { operation: entry.operation, what: `${entry.pointer} type`, reason: `a ${entry.location} parameter is text on the wire: JSON types do not apply` },
      ];
    if (entry.location === 'body' && !jsonRequestSchema(entry.operation))
      return [
        {
          operation: entry.operation,
          what: `${entry.pointer} ${entry.keyword}`,
          reason:
            'the raw file is any bytes (a binary string): no value breaks its schema; the upload-size and content-type dimensions try its bytes and types',
        },
      ];
    return [];
  });
}

const keyOf = (entry: { operation: string; pointer: string; keyword: string }) => `${entry.operation} ${entry.pointer} ${entry.keyword}`;

/** The coverage object of a run, from its checks' results (undefined when no check of the coverage phase ran). */
export function coverageOf(results: readonly CheckResult[]): CoverageReport | undefined {
  const covering = results.filter((result) => result.coverage && result.coverage.length > 0);
  if (covering.length === 0) return undefined;
  const keywords = specKeywords();
  const byKey = new Map(keywords.map((entry) => [keyOf(entry), entry]));
  const dimensions = new Map<string, DimensionCoverage>();
  const untestable: UntestableEntry[] = [];
  for (const record of covering.flatMap((result) => result.coverage ?? [])) {
    if (record.kind === 'untestable') {
      untestable.push({ operation: record.operation, what: record.what, reason: record.reason });
      continue;
    }
    if (record.kind === 'keyword') {
      const entry = byKey.get(keyOf(record));
      if (entry) entry[record.polarity] += 1;
      continue;
    }
    const key = `${record.operation} ${record.dimension}`;
    const entry = dimensions.get(key) ?? { operation: record.operation, dimension: record.dimension, count: 0, values: [] };
    entry.count += 1;
    if (!entry.values.includes(record.value)) entry.values.push(record.value);
    dimensions.set(key, entry);
  }
  const seen = new Set<string>();
  const allUntestable = [...untestableKeywords(), ...untestable].filter((entry) => {
    const key = `${entry.operation} ${entry.what}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { keywords, dimensions: [...dimensions.values()], responses: responsesOf(results), untestable: allUntestable };
}

/** Per operation, the status and error code pairs answered in the run, beside the documented statuses. */
function responsesOf(results: readonly CheckResult[]): CoverageReport['responses'] {
  const counts = new Map<string, Map<string, { status: number; code?: string; count: number }>>();
  for (const exchange of results.flatMap((result) => result.exchanges)) {
    if (!exchange.operationId || !exchange.response) continue;
    let code: string | undefined;
    try {
      const parsed = JSON.parse(exchange.response.body) as { error?: { code?: unknown } };
      if (typeof parsed?.error?.code === 'string') code = parsed.error.code;
    } catch {
      // Not JSON: counted by its status alone.
    }
    const byPair = counts.get(exchange.operationId) ?? new Map();
    const pair = `${exchange.response.status} ${code ?? ''}`;
    const entry = byPair.get(pair) ?? { status: exchange.response.status, ...(code ? { code } : {}), count: 0 };
    entry.count += 1;
    byPair.set(pair, entry);
    counts.set(exchange.operationId, byPair);
  }
  return operations
    .filter((op) => counts.has(op.operationId))
    .map((op) => ({
      operation: op.operationId,
      documented_statuses: op.statuses,
      observed: [...counts.get(op.operationId)!.values()].sort((a, b) => a.status - b.status || (a.code ?? '').localeCompare(b.code ?? '')),
    }));
}
