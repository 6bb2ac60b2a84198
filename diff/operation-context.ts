// One operation present in both documents, and how rule families walk the schemas it carries.
import type { Json, JsonObject } from '../spec/index.ts';
import type { Reporter } from './findings.ts';
import type { DocumentPair } from './model.ts';
import type { Located } from './pointer.ts';
import type { Part, Side } from './model.ts';

export interface OperationSide {
  operation: JsonObject;
  pointer: string;
  /** Parameters declared on the path item, shared by its operations. */
  pathParameters: Json[];
  pathParametersPointer: string;
}

/** An operation both documents have. */
export interface OperationPair {
  pair: DocumentPair;
  /** "POST /v1/decide", with the new document's path. */
  label: string;
  old: OperationSide;
  new: OperationSide;
}

export interface OperationContext extends OperationPair {
  collector: Reporter;
  /** Walks the pair of root schemas of one part (`body`, `query:NAME`, `response:200`…), on its side of the wire. */
  walkSchemas(side: Side, part: Pick<Part, 'name' | 'mediaType'>, old: Located, next: Located): void;
}
