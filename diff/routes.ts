// Routes through a document's schemas: from the root schema of a part to a node inside it, one
// keyword at a time, $ref followed. The witness search builds values along them; the inclusion
// check asks whether a node is reached only where admitting more values cannot admit fewer.
import { isObject, type JsonObject } from '../spec/index.ts';
import { APPLIED_SUBSCHEMAS } from './keywords.ts';
import { child, follow, type Located } from './pointer.ts';

/** One step of a route: the keyword (and key) from a schema to a subschema, and where it leads. */
export interface Step {
  keyword: string;
  key?: string | number;
  /** The schema the step leaves. */
  here: Located;
}

interface Edge {
  keyword: string;
  key?: string | number;
  next: Located;
}

/** Keywords whose subschema is applied to the value inverted ("not") or as a condition ("if"): more there can mean less here. */
const CONTRAVARIANT = new Set(['not', 'if']);
/** Subschemas applied to a value's property names, not its values: no value is built through them. */
const ON_NAMES = new Set(['propertyNames']);
const MAX_LENGTH = 24;

function edgesOf(at: Located): Edge[] {
  const schema = at.node;
  if (!isObject(schema)) return [];
  const edges: Edge[] = [];
  for (const keyword of APPLIED_SUBSCHEMAS.one)
    if (isObject(schema[keyword])) edges.push({ keyword, next: { node: schema[keyword], pointer: child(at.pointer, keyword) } });
  for (const keyword of APPLIED_SUBSCHEMAS.list) {
    const list = schema[keyword];
    if (Array.isArray(list)) list.forEach((node, index) => edges.push({ keyword, key: index, next: { node, pointer: child(at.pointer, keyword, index) } }));
  }
  for (const keyword of APPLIED_SUBSCHEMAS.map) {
    const map = schema[keyword];
    if (isObject(map)) for (const [key, node] of Object.entries(map)) edges.push({ keyword, key, next: { node, pointer: child(at.pointer, keyword, key) } });
  }
  return edges;
}

function followed(doc: JsonObject, located: Located): Located | undefined {
  try {
    return follow(doc, located);
  } catch {
    return undefined;
  }
}

/** Up to `max` shortest routes from a part's root schema to the node at `target` (a pointer after $ref), never through "not" or property names. */
export function routesTo(doc: JsonObject, root: Located, target: string, max: number): Step[][] {
  const start = followed(doc, root);
  if (!start) return [];
  const routes: Step[][] = [];
  const queue: Array<{ at: Located; route: Step[] }> = [{ at: start, route: [] }];
  const seen = new Set<string>([start.pointer]);
  while (queue.length > 0 && routes.length < max) {
    const { at, route } = queue.shift()!;
    if (at.pointer === target) {
      routes.push(route);
      continue;
    }
    if (route.length > MAX_LENGTH) continue;
    for (const { keyword, key, next } of edgesOf(at)) {
      if (keyword === 'not' || ON_NAMES.has(keyword)) continue;
      const to = followed(doc, next);
      if (!to || (seen.has(to.pointer) && to.pointer !== target)) continue;
      seen.add(to.pointer);
      queue.push({ at: to, route: [...route, { keyword, ...(key !== undefined ? { key } : {}), here: at }] });
    }
  }
  return routes;
}

/** Whether the node at `target` is reached from the part's root, and never through "not" or "if". */
export function onlyCovariant(doc: JsonObject, root: Located, target: string): boolean {
  const start = followed(doc, root);
  if (!start) return false;
  let reached = false;
  const queue: Array<{ at: Located; inverted: boolean }> = [{ at: start, inverted: false }];
  const seen = new Set<string>([`${start.pointer}\u0000false`]);
  while (queue.length > 0) {
    const { at, inverted } = queue.shift()!;
    if (at.pointer === target) {
      if (inverted) return false;
      reached = true;
    }
    for (const { keyword, next } of edgesOf(at)) {
      const to = followed(doc, next);
      const flipped = inverted || CONTRAVARIANT.has(keyword);
      if (!to || seen.has(`${to.pointer}\u0000${flipped}`)) continue;
      seen.add(`${to.pointer}\u0000${flipped}`);
      queue.push({ at: to, inverted: flipped });
    }
  }
  return reached;
}
