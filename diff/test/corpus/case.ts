// A corpus case: the kit's own spec, a change made to a parsed copy of it, and the rule ids the
// diff must report in each direction (old -> new, then new -> old). Cases are code, not
// files, so they follow the spec as it evolves.
import { openapiDocument, type JsonObject } from '../../../spec/index.ts';

export interface CorpusCase {
  name: string;
  /** Applied to both documents first (e.g. a probe property to change). */
  prepare?(doc: any): void;
  /** The change: applied to the new document only. */
  change(doc: any): void;
  /** Rule ids the diff must report from the old to the new document. */
  forward: string[];
  /** Rule ids the diff must report from the new to the old document (the change undone). */
  reverse: string[];
}

export function documentsOf(corpusCase: CorpusCase): { old: JsonObject; changed: JsonObject } {
  const old = structuredClone(openapiDocument) as any;
  corpusCase.prepare?.(old);
  const changed = structuredClone(old);
  corpusCase.change(changed);
  return { old, changed };
}

/**
 * Adds a property `probe` with the given schema to a schema used only in requests
 * (FeedbackRequest) or only in responses (Feedback), so one change is judged on one side.
 */
export function probe(doc: any, side: 'request' | 'response', schema: object): void {
  const host = doc.components.schemas[side === 'request' ? 'FeedbackRequest' : 'Feedback'];
  host.properties.probe = schema;
}

export function probeOf(doc: any, side: 'request' | 'response'): any {
  return doc.components.schemas[side === 'request' ? 'FeedbackRequest' : 'Feedback'].properties.probe;
}
