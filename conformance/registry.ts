// The catalogue: every check of every area, in run order. No check lives anywhere else.
import type { Check } from './check.ts';
import { authChecks } from './auth.ts';

export const checks: readonly Check[] = [...authChecks];

const byId = new Map<string, Check>();
for (const check of checks) {
  if (byId.has(check.id)) throw new Error(`Duplicate check id ${check.id}`);
  byId.set(check.id, check);
}

export function checkById(id: string): Check {
  const check = byId.get(id);
  if (!check) throw new Error(`No check ${id} in the catalogue`);
  return check;
}
