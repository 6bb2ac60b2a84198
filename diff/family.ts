// A rule family: its rules and the function that judges them, in one entry (as oasdiff's
// checker/rules.go keeps each rule's id, level and handler together). The registry is a list
// of these, so the catalogue and the comparison are the same list: a family cannot be listed
// without running, nor run without being listed. Each family declares the stage whose input
// it judges; the driver (diff.ts) runs the stages in order.
import type { Reporter } from './findings.ts';
import type { DocumentPair, Finding, Rule } from './model.ts';
import type { OperationContext } from './operation-context.ts';
import type { PathPair } from './path-pairs.ts';
import type { SchemaRuleFamily } from './schema-walk.ts';
import type { MajorVersions } from './version.ts';

/** What every stage sees: the documents, their major versions, and their paths paired. */
export interface Run {
  pair: DocumentPair;
  majors: MajorVersions;
  paths: readonly PathPair[];
}

/** Stage `document`: the description as a whole (paths, security schemes, the kit's extensions). */
export interface DocumentStage extends Run {
  collector: Reporter;
}

/** Stage `collected`: runs once every other stage has reported, and sees what they found. */
export interface CollectedStage extends DocumentStage {
  findings: readonly Finding[];
  /** Pointers of the schema nodes (in either document) that some operation's walk compared. */
  reached: ReadonlySet<string>;
}

interface FamilyEntry {
  /** The family's name in the catalogue. */
  name: string;
  rules: readonly Rule[];
  /**
   * Runs after every stage, on every finding: adds what the family knows about a finding's
   * node (an open point, hard-rule sections) or applies a verdict that depends on the whole
   * comparison (the major-version rule). Reports nothing.
   */
  amend?(run: Run, findings: Finding[]): void;
}

/**
 * The stages, in the order they run: `document` once; `operation` once per operation both
 * documents have; `schema` once per pair of schema nodes an operation's request or response
 * reaches, on that side of the wire; `collected` once at the end.
 */
export type RuleFamily =
  | (FamilyEntry & { stage: 'document'; compare(stage: DocumentStage): void })
  | (FamilyEntry & { stage: 'operation'; compare(ctx: OperationContext): void })
  | (FamilyEntry & { stage: 'schema'; compare: SchemaRuleFamily })
  | (FamilyEntry & { stage: 'collected'; compare(stage: CollectedStage): void });

export type Stage = RuleFamily['stage'];
