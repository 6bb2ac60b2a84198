// Whether the branches of a oneOf can overlap. When no value can match two of them, the oneOf
// admits exactly what an anyOf of the same branches admits: either spelling is the same set.
import { isObject, resolvePointer, type Json } from '../spec/index.ts';
import { canonical } from './schema-walk.ts';

/** The const or enum values a branch requires of `property`, or undefined when it does not pin it. */
function pinnedValues(branch: Json, property: string, root: Json): string[] | undefined {
  const schema = isObject(branch) && typeof branch.$ref === 'string' ? safeResolve(branch.$ref, root) : branch;
  if (!isObject(schema) || !Array.isArray(schema.required) || !schema.required.includes(property)) return undefined;
  const at = isObject(schema.properties) ? schema.properties[property] : undefined;
  if (!isObject(at)) return undefined;
  if (at.const !== undefined) return [canonical(at.const)];
  return Array.isArray(at.enum) ? at.enum.map((value) => canonical(value)) : undefined;
}

function safeResolve(pointer: string, root: Json): Json | undefined {
  try {
    return resolvePointer(pointer, root);
  } catch {
    return undefined;
  }
}

/**
 * Whether no value can match two of the branches: every branch requires one same property and
 * pins it to values no other branch allows (a tagged union). `root` resolves branches given by $ref.
 */
export function oneOfIsDisjoint(branches: Json | undefined, root: Json): boolean {
  if (!Array.isArray(branches) || branches.length < 2) return Array.isArray(branches);
  const first = branches[0];
  const resolved = isObject(first) && typeof first.$ref === 'string' ? safeResolve(first.$ref, root) : first;
  const candidates = isObject(resolved) && Array.isArray(resolved.required) ? resolved.required.map(String) : [];
  return candidates.some((property) => {
    const seen = new Set<string>();
    return branches.every((branch) => {
      const values = pinnedValues(branch, property, root);
      if (!values || values.some((value) => seen.has(value))) return false;
      for (const value of values) seen.add(value);
      return true;
    });
  });
}
