// The seed's sections and where the spec cites each one (x-seed-section).
import { isObject, openapiDocument, type Json, type JsonObject } from './document.ts';

export interface SeedSection {
  id: string;
  title: string;
  /** True when the section states rules a server must meet (as opposed to purpose only or "not shown"). */
  hardRules: boolean;
}

export const seedSections: readonly SeedSection[] = (openapiDocument['x-seed-sections'] as JsonObject[]).map((entry) => ({
  id: String(entry.id),
  title: String(entry.title),
  hardRules: entry.hard_rules === true,
}));

export const hardRuleSections: readonly SeedSection[] = seedSections.filter((section) => section.hardRules);

/** Section id -> JSON pointers of every node whose x-seed-section cites it. */
export const seedSectionIndex: ReadonlyMap<string, readonly string[]> = buildIndex();

function buildIndex(): Map<string, string[]> {
  const index = new Map<string, string[]>(seedSections.map((section) => [section.id, []]));
  const visit = (node: Json, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => visit(child, `${pointer}/${i}`));
      return;
    }
    if (!isObject(node)) return;
    const cited = node['x-seed-section'];
    if (Array.isArray(cited)) {
      for (const id of cited) {
        const list = index.get(String(id));
        if (!list) throw new Error(`${pointer || '/'} cites seed section ${String(id)}, which x-seed-sections does not list`);
        list.push(pointer || '/');
      }
    }
    for (const [key, child] of Object.entries(node)) {
      visit(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  visit(openapiDocument, '');
  return index;
}
