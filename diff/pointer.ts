// JSON pointers into either document, and $ref resolution within the document a node came from.
import { isObject, resolvePointer, type Json, type JsonObject } from '../spec/index.ts';

export function child(pointer: string, ...keys: Array<string | number>): string {
  return keys.reduce<string>((at, key) => `${at}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`, pointer);
}

/** A node and where it lives. */
export interface Located {
  node: Json;
  pointer: string;
}

/**
 * Follows $ref chains to the node they name; the pointer becomes the target's, so a change
 * inside a shared component is reported once, where it was made.
 */
export function follow(doc: JsonObject, located: Located): Located {
  let { node, pointer } = located;
  const seen = new Set<string>();
  while (isObject(node) && typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (seen.has(ref)) throw new Error(`reference cycle at ${ref}`);
    seen.add(ref);
    node = resolvePointer(ref, doc);
    pointer = ref.slice(1);
  }
  return { node, pointer };
}

/** The node at a pointer of the document, its $ref followed; `{}` (any value) where the pointer leads nowhere. */
export function locate(doc: JsonObject, pointer: string): Located {
  let node: Json;
  try {
    node = resolvePointer(`#${pointer}`, doc);
  } catch {
    node = {};
  }
  return follow(doc, { node, pointer });
}

/** Every node on the way from the root to `pointer`, root first; stops where the path ends. */
export function nodesOnPath(doc: JsonObject, pointer: string): Json[] {
  const nodes: Json[] = [doc];
  let node: Json = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)] as Json;
    else if (isObject(node)) node = node[key] as Json;
    else break;
    if (node === undefined) break;
    nodes.push(node);
  }
  return nodes;
}

/**
 * The schema of a media type object, or `{}` located at the media type when it has none: a
 * media type without a schema takes any body, so a schema added or removed is judged like any
 * other narrowing or widening.
 */
export function mediaSchema(media: JsonObject, pointer: string): Located {
  return media.schema === undefined ? { node: {}, pointer } : { node: media.schema, pointer: child(pointer, 'schema') };
}
