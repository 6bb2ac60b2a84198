// The major version (seed 9): it lives in the path (/v1) and in info.version. Changes that
// could break clients ship under a new major version, so when both move to a new major, the
// diff still lists every breaking change but as info.
import { isObject, type JsonObject } from '../spec/index.ts';

export interface MajorVersions {
  oldMajor: number | undefined;
  newMajor: number | undefined;
  oldPathMajors: number[];
  newPathMajors: number[];
  /** True when info.version's major and the /vN path prefix both moved to a new major. */
  changed: boolean;
}

export function infoMajor(doc: JsonObject): number | undefined {
  const version = isObject(doc.info) ? doc.info.version : undefined;
  const match = /^v?(\d+)/.exec(String(version ?? ''));
  return match ? Number(match[1]) : undefined;
}

export function pathMajors(doc: JsonObject): number[] {
  const majors = new Set<number>();
  for (const path of Object.keys(isObject(doc.paths) ? doc.paths : {})) {
    const match = /^\/v(\d+)(?=\/|$)/.exec(path);
    if (match) majors.add(Number(match[1]));
  }
  return [...majors].sort((a, b) => a - b);
}

export function majorVersions(old: JsonObject, next: JsonObject): MajorVersions {
  const oldMajor = infoMajor(old);
  const newMajor = infoMajor(next);
  const oldPathMajors = pathMajors(old);
  const newPathMajors = pathMajors(next);
  const infoMoved = oldMajor !== undefined && newMajor !== undefined && newMajor > oldMajor;
  const pathsMoved = newPathMajors.length > 0 && newPathMajors.every((major) => !oldPathMajors.includes(major)) && newPathMajors.includes(newMajor ?? -1);
  return { oldMajor, newMajor, oldPathMajors, newPathMajors, changed: infoMoved && pathsMoved };
}

/**
 * The key that pairs a path of the old document with one of the new: parameter names do not
 * count (renaming {asset_id} keeps the URL), and across a major version change neither does
 * the /vN prefix.
 */
export function pathKey(path: string, acrossMajors: boolean): string {
  const generic = path.replace(/\{[^}]*\}/g, '{}');
  return acrossMajors ? generic.replace(/^\/v\d+(?=\/|$)/, '/v*') : generic;
}
