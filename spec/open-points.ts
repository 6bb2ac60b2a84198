// The seed's open points ("not shown"), each with the reference server's choice, a different
// choice the seed equally allows, and what the seed still rules out inside the point.
import { openapiDocument, type Json, type JsonObject } from './document.ts';

/**
 * A behaviour the seed allows on an open point; `served` says whether the reference server serves
 * it, `served_alone` that it is served only when chosen on its own, because in the alternate
 * profile as a whole it would hide another alternate.
 */
export type Choice = JsonObject & { summary: string };

export interface OpenPoint {
  id: string;
  /** The seed section that leaves the point open. */
  seedSection: string;
  /** What the seed leaves open. */
  open: string;
  /** What the bundled reference server does; suites never fail a server on it. */
  referenceChoice: Choice;
  /** Another behaviour the seed equally allows (the reference server's alternate profile). */
  alternateChoice: Choice & { served: boolean; served_alone?: boolean };
  /** What the seed still states inside the open point: checked at MUST (or SHOULD), never relaxed. */
  seedBounds: string[];
}

export const openPoints: readonly OpenPoint[] = (openapiDocument['x-open-points'] as JsonObject[]).map((entry) => ({
  id: String(entry.id),
  seedSection: String(entry.seed_section),
  open: String(entry.open),
  referenceChoice: entry['x-reference-choice'] as Choice,
  alternateChoice: entry['x-alternate-choice'] as Choice & { served: boolean; served_alone?: boolean },
  seedBounds: (entry['x-seed-bounds'] ?? []) as string[],
}));

export function openPoint(id: string): OpenPoint {
  const found = openPoints.find((point) => point.id === id);
  if (!found) throw new Error(`No open point ${id} in the spec`);
  return found;
}

export type ChoiceName = 'reference' | 'alternate';

/** One field of an open point's choice, e.g. choiceOf('alternate', 'decide-success-status', 'status'). */
export function choiceOf<T extends Json = Json>(choice: ChoiceName, id: string, field: string): T {
  const point = openPoint(id);
  const value = (choice === 'reference' ? point.referenceChoice : point.alternateChoice)?.[field];
  if (value === undefined) throw new Error(`Open point ${id} records no ${choice} ${field}`);
  return value as T;
}

/**
 * One field of an open point's reference choice, e.g. referenceChoice('decide-success-status', 'status').
 * For the reference server and for OBSERVE checks only: it never decides a MUST or SHOULD verdict.
 */
export function referenceChoice<T extends Json = Json>(id: string, field: string): T {
  return choiceOf<T>('reference', id, field);
}

/** One field of an open point's alternate choice (the reference server's alternate profile). */
export function alternateChoice<T extends Json = Json>(id: string, field: string): T {
  return choiceOf<T>('alternate', id, field);
}
