// What the diff produces: findings, each the verdict of one rule on one change.
import type { Json, JsonObject } from '../spec/index.ts';
import type { Located } from './pointer.ts';

/** breaking: existing clients may fail; non-breaking: they keep working; info: worth a reviewer's look. */
export type ChangeClass = 'breaking' | 'non-breaking' | 'info';

/**
 * Which side of the wire a rule judges. A narrowed constraint breaks callers on the request
 * side and is harmless on the response side, and the reverse for widening; document rules
 * judge the description as a whole (paths, security, the kit's own extensions); both: a
 * schema rule with the same verdict on either side.
 */
export type Direction = 'request' | 'response' | 'both' | 'document';

export interface Rule {
  /** Stable id, never reused for another meaning. */
  id: string;
  direction: Direction;
  class: ChangeClass;
  /** What the rule detects, in one line. */
  description: string;
}

export interface Finding {
  ruleId: string;
  class: ChangeClass;
  direction: Direction;
  /** JSON pointer of the changed node in the old document (its nearest existing parent when the node is new). */
  oldPointer: string;
  /** JSON pointer of the changed node in the new document (its nearest existing parent when the node is gone). */
  newPointer: string;
  /** "POST /v1/decide" for each operation the change reaches; empty for document-wide changes. */
  operations: string[];
  /** One sentence a reviewer understands. */
  message: string;
  /** For changes to an open point: its id (servers may differ there). */
  openPoint?: string;
  /** Hard-rule seed sections the changed node cites, e.g. "2.2 Content part". */
  hardRuleSections?: string[];
  /** Set when a new major version turned a breaking finding into info (seed 9.2). */
  downgradedFrom?: ChangeClass;
  /** A breaking finding's proof: a whole value of a part that the two documents tell apart (diff/witness.ts). */
  witness?: Witness;
  /** Why a breaking finding has no witness. */
  witnessMissing?: string;
  /**
   * Set when the value sets overrule the keyword rule's class. `same`: both nodes admit the same
   * values (a change of shape only), and `included`: every value valid before is still valid
   * (request), or every value sent now was valid before (response); the finding is info. `lost`:
   * the rule judged the change harmless, but the witness shows a value lost; the finding is breaking.
   */
  valueSets?: 'same' | 'included' | 'lost';
}

/** The two documents being compared. */
export interface DocumentPair {
  old: JsonObject;
  new: JsonObject;
}

/** Which side of the wire a schema is walked on. */
export type Side = 'request' | 'response';

/**
 * One part of an operation's exchange a value crosses the wire in: `body`, `header:NAME`,
 * `path:NAME`, `query:NAME`, `cookie:NAME`, `response:STATUS` (its body) or
 * `response:STATUS:header:NAME`; with the part's root schema in each document.
 */
export interface Part {
  operation: string;
  name: string;
  side: Side;
  /** The media type of a body. */
  mediaType?: string;
  old: Located;
  new: Located;
}

/**
 * Where a schema rule reported: the part it was walking, and the pair of schema nodes it was
 * comparing (pointers, and the nodes: a subschema one side lacks is `{}` at its parent's pointer).
 */
export interface Site {
  part: Part;
  old: string;
  new: string;
  oldNode: Json;
  newNode: Json;
}

/** A breaking change's proof: a whole value of one part that the two documents tell apart (witness.ts). */
export interface Witness {
  operation: string;
  /** `body`, `header:NAME`, `path:NAME`, `query:NAME`, `response:STATUS`, `response:STATUS:header:NAME`. */
  part: string;
  /** The part's whole value: a whole request body for `body`. */
  value: Json;
  /** The media type of a body. */
  mediaType?: string;
}
