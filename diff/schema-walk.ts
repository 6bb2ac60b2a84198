// Walks an old and a new schema side by side, the way a value crosses the wire: on the request
// side the client writes it and the server must still accept it; on the response side the
// server writes it and the client must still understand it. Every use of a shared component
// is walked with the direction of that use, so a change to a component that both a request
// and a response use is judged on each side separately.
import { isObject, type Json, type JsonObject } from '../spec/index.ts';
import type { Reported, Reporter } from './findings.ts';
import type { DocumentPair, Part, Rule, Side } from './model.ts';
import { follow, type Located } from './pointer.ts';

export interface SchemaWalk {
  pair: DocumentPair;
  side: Side;
  /** "POST /v1/decide": the operation whose request or response is walked. */
  operation: string;
  /** The reporter of the family judging the node. */
  collector: Reporter;
  /** Pairs already walked for this operation and side (schemas may be recursive). */
  visited: Set<string>;
  /** The part whose schemas are walked. */
  part: Part;
  /** The pair of nodes being compared (set for each pair the walk reaches). */
  at?: { old: SchemaNode; new: SchemaNode };
}

/** A rule family judging one pair of schema nodes; `recurse` walks a pair of subschemas. */
export type SchemaRuleFamily = (walk: SchemaWalk, old: SchemaNode, next: SchemaNode, recurse: Recurse) => void;
export type Recurse = (old: Located, next: Located) => void;

export interface SchemaNode {
  schema: JsonObject;
  pointer: string;
}

/** Reports a finding at a pair of schema nodes for the walk's operation. */
export function reportAt(
  walk: SchemaWalk,
  rule: Rule,
  old: Pick<SchemaNode, 'pointer'>,
  next: Pick<SchemaNode, 'pointer'>,
  message: string,
  extra: Partial<Reported> = {},
): void {
  const site = walk.at
    ? { site: { part: walk.part, old: walk.at.old.pointer, new: walk.at.new.pointer, oldNode: walk.at.old.schema, newNode: walk.at.new.schema } }
    : {};
  walk.collector.report(rule, { oldPointer: old.pointer, newPointer: next.pointer, operation: walk.operation, message, ...site, ...extra });
}

/** The rule of a side: families define each rule once per side and pick by the walk's side. */
export function bySide(walk: SchemaWalk, rules: Record<Side, Rule>): Rule {
  return rules[walk.side];
}

/** A schema-stage family with its own reporter. */
export interface SchemaJudge {
  compare: SchemaRuleFamily;
  collector: Reporter;
}

export function compareSchemas(walk: Omit<SchemaWalk, 'collector'>, families: readonly SchemaJudge[], old: Located, next: Located): void {
  const oldNode = follow(walk.pair.old, old);
  const newNode = follow(walk.pair.new, next);
  const key = `${oldNode.pointer}\u0000${newNode.pointer}`;
  if (walk.visited.has(key)) return;
  walk.visited.add(key);
  const oldSchema = asSchema(oldNode.node);
  const newSchema = asSchema(newNode.node);
  const recurse: Recurse = (o, n) => compareSchemas(walk, families, o, n);
  const at = { old: { schema: oldSchema, pointer: oldNode.pointer }, new: { schema: newSchema, pointer: newNode.pointer } };
  for (const family of families) family.compare({ ...walk, collector: family.collector, at }, at.old, at.new, recurse);
}

/** Boolean schemas (2020-12) as objects: true accepts anything, false nothing. */
function asSchema(node: Json): JsonObject {
  if (node === true || node === undefined) return {};
  if (node === false) return { not: {} };
  return isObject(node) ? node : {};
}

/** Canonical JSON, keys sorted, for comparing two subtrees by content. */
export function canonical(node: Json | undefined): string {
  if (Array.isArray(node)) return `[${node.map(canonical).join(',')}]`;
  if (isObject(node))
    return `{${Object.keys(node)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(node[key])}`)
      .join(',')}}`;
  return JSON.stringify(node ?? null);
}
