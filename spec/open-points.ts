// The seed's open points ("not shown"), each with the reference server's choice.
import { openapiDocument, type Json, type JsonObject } from './document.ts';

export interface OpenPoint {
  id: string;
  /** The seed section that leaves the point open. */
  seedSection: string;
  /** What the seed leaves open. */
  open: string;
  /** What the bundled reference server does; suites never fail a server on it. */
  referenceChoice: JsonObject & { summary: string };
}

export const openPoints: readonly OpenPoint[] = (openapiDocument['x-open-points'] as JsonObject[]).map((entry) => ({
  id: String(entry.id),
  seedSection: String(entry.seed_section),
  open: String(entry.open),
  referenceChoice: entry['x-reference-choice'] as JsonObject & { summary: string },
}));

export function openPoint(id: string): OpenPoint {
  const found = openPoints.find((point) => point.id === id);
  if (!found) throw new Error(`No open point ${id} in the spec`);
  return found;
}

/** One field of an open point's reference choice, e.g. referenceChoice('decide-success-status', 'status'). */
export function referenceChoice<T extends Json = Json>(id: string, field: string): T {
  const value = openPoint(id).referenceChoice[field];
  if (value === undefined) throw new Error(`Open point ${id} records no reference ${field}`);
  return value as T;
}
