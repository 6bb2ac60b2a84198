// Pairs the paths and operations of two documents. Paths pair by their key (parameter names,
// and across a new major version the /vN prefix, do not count); operations pair by method.
import { isObject, type Json, type JsonObject } from '../spec/index.ts';
import type { DocumentPair } from './model.ts';
import type { OperationPair } from './operation-context.ts';
import { child } from './pointer.ts';
import { pathKey, type MajorVersions } from './version.ts';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface PathItemAt {
  path: string;
  item: JsonObject;
  pointer: string;
}

/** A path of the old document, the new one, or both: old paths in order, then the new ones. */
export interface PathPair {
  old?: PathItemAt;
  new?: PathItemAt;
}

function pathsOf(doc: JsonObject, acrossMajors: boolean): Map<string, PathItemAt> {
  const paths = isObject(doc.paths) ? doc.paths : {};
  return new Map(
    Object.entries(paths).flatMap(([path, item]) =>
      isObject(item) ? [[pathKey(path, acrossMajors), { path, item, pointer: child('/paths', path) }] as const] : [],
    ),
  );
}

export function pairPaths(pair: DocumentPair, majors: MajorVersions): PathPair[] {
  const before = pathsOf(pair.old, majors.changed);
  const after = pathsOf(pair.new, majors.changed);
  return [
    ...[...before].map(([key, old]) => ({ old, new: after.get(key) })),
    ...[...after].filter(([key]) => !before.has(key)).map(([, next]) => ({ new: next })),
  ];
}

const listOf = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : []);

/** Every operation both documents have, with the new document's path in its label. */
export function operationPairs(pair: DocumentPair, paths: readonly PathPair[]): OperationPair[] {
  return paths.flatMap(({ old: was, new: now }) => {
    if (!was || !now) return [];
    return METHODS.flatMap((method) => {
      const oldOperation = was.item[method];
      const newOperation = now.item[method];
      if (!isObject(oldOperation) || !isObject(newOperation)) return [];
      return [
        {
          pair,
          label: `${method.toUpperCase()} ${now.path}`,
          old: {
            operation: oldOperation,
            pointer: child(was.pointer, method),
            pathParameters: listOf(was.item.parameters),
            pathParametersPointer: child(was.pointer, 'parameters'),
          },
          new: {
            operation: newOperation,
            pointer: child(now.pointer, method),
            pathParameters: listOf(now.item.parameters),
            pathParametersPointer: child(now.pointer, 'parameters'),
          },
        },
      ];
    });
  });
}
