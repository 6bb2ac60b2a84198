// The commands of the asset model run. Each says whether it may run (`check`, from the model
// alone, so that a shrunk sequence replays the same way), sends one request (`run`), predicts
// the answer from the model, asserts only what the seed states, and updates the model.
//
// What the seed states, and what is asserted:
//   upload of a valid file                  201 with an Asset of that mime_type, size and SHA-256,
//                                           a new id, expires_at after created_at (4.5, 2.5)
//   owner reads an active asset             success with the Asset as uploaded (4.6)
//   owner deletes an active asset           success with {id, object, deleted: true} (4.7)
//   owner references an active asset       success (2.2)
//   owner references an expired asset       410 ASSET_EXPIRED (3, 7)
//   another project, active asset           403 ASSET_FORBIDDEN (3 rule 1)
//   unknown id                              404 ASSET_NOT_FOUND (3 rule 2)
// "Success" is any 2xx: the statuses of GET and DELETE are open point asset-read-delete-status,
// that of decide is not shown. Where the seed is silent, only "not 2xx" or nothing is asserted:
// the owner after deletion (open point asset-after-delete), another project after deletion or
// expiry, the owner reading or deleting an expired asset (open point asset-read-after-expiry; an
// Asset it answers must still be the one uploaded), anything at the very moment of expiry, and,
// when commands run together (together.ts), anything the owner does while the asset's deletion
// is in flight (its decision may come first or after: success or not 2xx).
import fc from 'fast-check';
import { partMayReference } from '../../spec/index.ts';
import { assetDifferences, assetLifetimeMs, decideReferencing, sha256EncodingOf, sleep, unknownAssetId, uploadSample } from '../../harness/assets-support.ts';
import { CheckFailure } from '../../harness/check.ts';
import { expectError, expectNotSuccess, expectSuccess, expectValidBody, isSuccess } from '../../harness/expect.ts';
import type { Reply } from '../../harness/http.ts';
import type { MediaPartType } from '../../harness/requests.ts';
import { familyOfType, type SampleMimeType } from '../../harness/samples/media.ts';
import { phaseDuring, refLabel, surelyExpiredAt, type AssetModel, type Deletion, type ModelAsset, type Phase, type Project } from './model.ts';
import { clientOf, type RealSystem } from './system.ts';

/** The longest a single WaitForExpiry sleeps, whatever expires_at says. */
export const MAX_EXPIRY_WAIT_MS = 15_000;

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const typeLabel = (mimeType: SampleMimeType) => (mimeType === DOCX ? 'DOCX' : mimeType);

/** Seed 2.2, as the spec records it (x-part-families): whether a part of this type may reference an upload of this type. */
export function partFits(partType: MediaPartType, mimeType: SampleMimeType): boolean {
  return partMayReference(partType, familyOfType(mimeType));
}

/** A read or upload answered an Asset: it must be the one recorded at upload (seed 4.6: "the same Asset object as upload"). */
function expectRecordedAsset(reply: Reply, asset: ModelAsset, ref: string, operationId: 'getAsset'): void {
  expectValidBody(reply, operationId);
  const differences = assetDifferences(asset.uploaded, reply.json);
  if (differences.length > 0) throw new CheckFailure(`the Asset ${ref} as uploaded (seed 4.6)`, differences.join('; '));
}

const PHASE_WORDS: Record<Phase, string> = {
  active: 'an active',
  deleted: 'a deleted',
  expired: 'an expired',
  'active-or-expired': 'an expiring',
  'active-or-deleted': 'a concurrently deleted',
};

/** "#1, a deleted asset of project A". */
const whose = (asset: ModelAsset, ref: string, phase: Phase) => `${ref}, ${PHASE_WORDS[phase]} asset of project ${asset.owner}`;

/** Every command counts itself, joins the sequence's list of commands run, then acts. */
export abstract class AssetCommand implements fc.AsyncCommand<AssetModel, RealSystem> {
  abstract readonly name: string;
  abstract check(model: Readonly<AssetModel>): boolean;
  protected abstract act(model: AssetModel, real: RealSystem): Promise<void>;
  abstract toString(): string;
  /** The same command, not yet run. */
  protected abstract fresh(): AssetCommand;

  run(model: AssetModel, real: RealSystem): Promise<void> {
    real.ran.push(this);
    real.exploration.commandsRun[this.name] = (real.exploration.commandsRun[this.name] ?? 0) + 1;
    return this.act(model, real);
  }

  /** Every run of a sequence gets its own commands, so that what a label shows (#1, #2) is that run's. */
  [fc.cloneMethod](): AssetCommand {
    return this.fresh();
  }
}

/**
 * A command about one of the sequence's assets, by its owner or by another project. `pick` counts
 * back from the newest asset (0: the newest), modulo the number uploaded so far, so the command
 * runs whenever there is an asset and most often uses a recent one; `actor` 0 is the owner, 1 and
 * up the other projects in turn. The label shows what was chosen: `Get(B, #1)`.
 */
abstract class AssetAction extends AssetCommand {
  private chosen: { ref: string; project: Project } | undefined;

  constructor(
    readonly actor: number,
    readonly pick: number,
    readonly projects: readonly Project[],
  ) {
    super();
  }

  check(model: Readonly<AssetModel>): boolean {
    return model.assets.length > 0;
  }

  protected choose(model: AssetModel): { asset: ModelAsset; ref: string; project: Project } {
    const index = model.assets.length - 1 - (this.pick % model.assets.length);
    const asset = model.assets[index]!;
    const others = this.projects.filter((project) => project !== asset.owner);
    const project = this.actor === 0 ? asset.owner : others[(this.actor - 1) % others.length]!;
    this.chosen = { ref: refLabel(index), project };
    return { asset, ref: this.chosen.ref, project };
  }

  /** "B, #1" once run. */
  protected get target(): string {
    return this.chosen ? `${this.chosen.project}, ${this.chosen.ref}` : `${this.actor === 0 ? 'owner' : `other ${this.actor}`}, asset ${this.pick}`;
  }
}

/** Sends one request about `asset` and tells the phase the asset was in while it was in flight (`own`: the request is that deletion). */
async function about(asset: ModelAsset, send: () => Promise<Reply>, own?: Deletion): Promise<{ reply: Reply; phase: Phase }> {
  const sentAt = Date.now();
  const reply = await send();
  return { reply, phase: phaseDuring(asset, sentAt, Date.now(), own) };
}

/** Counts the situation a command met (e.g. "ReferenceInDecide by the owner of an expired asset"), for the report. */
function met(real: RealSystem, command: string, project: Project, asset: ModelAsset, phase: Phase): void {
  const situation = `${command} by ${project === asset.owner ? 'the owner' : 'another project'} of ${PHASE_WORDS[phase]} asset`;
  real.exploration.situations[situation] = (real.exploration.situations[situation] ?? 0) + 1;
}

export class Upload extends AssetCommand {
  readonly name = 'Upload';
  /** The asset number this upload got in its sequence (known once it ran). */
  private ordinal: number | undefined;

  constructor(
    readonly project: Project,
    readonly mimeType: SampleMimeType,
  ) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(model: AssetModel, real: RealSystem): Promise<void> {
    const sentAt = Date.now();
    const { asset, bytes, reply } = await uploadSample(clientOf(real, this.project), this.mimeType);
    const answeredAt = Date.now();
    const what = `project ${this.project}'s upload of a valid ${this.mimeType} file`;
    expectValidBody(reply, 'uploadAsset');
    if (asset.mime_type !== this.mimeType) throw new CheckFailure(`mime_type ${this.mimeType} for ${what}`, `mime_type ${JSON.stringify(asset.mime_type)}`);
    if (asset.size_bytes !== bytes.byteLength)
      throw new CheckFailure(`size_bytes ${bytes.byteLength} for ${what}`, `size_bytes ${JSON.stringify(asset.size_bytes)}`);
    if (!sha256EncodingOf(asset.sha256, bytes))
      throw new CheckFailure(`the SHA-256 of the file as sha256 for ${what}`, `sha256 ${JSON.stringify(asset.sha256)}`);
    const earlier = model.assets.findIndex((known) => known.id === asset.id);
    if (earlier >= 0) throw new CheckFailure(`a new asset id for ${what}`, `${asset.id}, the id of ${refLabel(earlier)}`);
    const lifetimeMs = assetLifetimeMs(asset);
    if (!(lifetimeMs > 0))
      throw new CheckFailure(`expires_at after created_at for ${what} (seed 2.5)`, `created_at ${asset.created_at}, expires_at ${asset.expires_at}`);
    const expires = { earliest: sentAt + lifetimeMs, latest: answeredAt + lifetimeMs };
    model.assets.push({ id: asset.id, owner: this.project, state: 'active', uploaded: asset, expires, waitedFor: false, deletions: [] });
    this.ordinal = model.assets.length;
  }

  toString(): string {
    return `Upload(${this.project}, ${typeLabel(this.mimeType)})${this.ordinal !== undefined ? ` -> #${this.ordinal}` : ''}`;
  }

  protected fresh(): Upload {
    return new Upload(this.project, this.mimeType);
  }
}

export class Get extends AssetAction {
  readonly name = 'Get';

  protected async act(model: AssetModel, real: RealSystem): Promise<void> {
    const { asset, ref, project } = this.choose(model);
    const { reply, phase } = await about(asset, () => clientOf(real, project).getAsset(asset.id));
    met(real, this.name, project, asset, phase);
    const what = `project ${project}'s GET of ${whose(asset, ref, phase)}`;
    if (project !== asset.owner) {
      if (phase === 'active') expectError(reply, 403, 'ASSET_FORBIDDEN', 'getAsset');
      else expectNotSuccess(reply, `${what}: no other project reads an asset (seed 3 rule 1)`);
      return;
    }
    if (phase === 'active') {
      expectSuccess(reply, `for ${what}`);
      expectRecordedAsset(reply, asset, ref, 'getAsset');
    } else if (phase === 'deleted') {
      expectNotSuccess(reply, `${what} (seed 3; the code is open point asset-after-delete)`);
    } else if (isSuccess(reply)) {
      expectRecordedAsset(reply, asset, ref, 'getAsset');
    }
  }

  toString(): string {
    return `Get(${this.target})`;
  }

  protected fresh(): Get {
    return new Get(this.actor, this.pick, this.projects);
  }
}

export class Delete extends AssetAction {
  readonly name = 'Delete';

  protected async act(model: AssetModel, real: RealSystem): Promise<void> {
    const { asset, ref, project } = this.choose(model);
    // Requests overlapping an owner's deletion may meet the asset either way; another project's changes nothing.
    const deletion: Deletion | undefined = project === asset.owner ? { sentAt: Date.now() } : undefined;
    if (deletion) asset.deletions.push(deletion);
    const { reply, phase } = await about(asset, () => clientOf(real, project).deleteAsset(asset.id), deletion);
    if (deletion) {
      deletion.answeredAt = Date.now();
      if (!isSuccess(reply)) asset.deletions.splice(asset.deletions.indexOf(deletion), 1);
    }
    met(real, this.name, project, asset, phase);
    const what = `project ${project}'s DELETE of ${whose(asset, ref, phase)}`;
    if (project !== asset.owner) {
      if (phase === 'active') expectError(reply, 403, 'ASSET_FORBIDDEN', 'deleteAsset');
      else expectNotSuccess(reply, `${what}: no other project deletes an asset (seed 3 rule 1)`);
      return;
    }
    if (phase === 'deleted') {
      expectNotSuccess(reply, `${what} (seed 3; the code is open point asset-after-delete)`);
      return;
    }
    if (phase === 'active') expectSuccess(reply, `for ${what}`);
    if (isSuccess(reply)) {
      // Seed 4.7: {id, object: "asset", deleted: true}.
      expectValidBody(reply, 'deleteAsset');
      if (reply.json.id !== asset.id) throw new CheckFailure(`id ${asset.id} in the answer to ${what} (seed 4.7)`, `id ${JSON.stringify(reply.json.id)}`);
      asset.state = 'deleted';
    }
  }

  toString(): string {
    return `Delete(${this.target})`;
  }

  protected fresh(): Delete {
    return new Delete(this.actor, this.pick, this.projects);
  }
}

export class ReferenceInDecide extends AssetAction {
  readonly name = 'ReferenceInDecide';
  private partUsed: MediaPartType | undefined;

  /** `partType` is the part wanted; when it does not fit the asset, the part of the asset's own family is sent. */
  constructor(
    actor: number,
    pick: number,
    projects: readonly Project[],
    readonly partType: MediaPartType,
  ) {
    super(actor, pick, projects);
  }

  protected async act(model: AssetModel, real: RealSystem): Promise<void> {
    const { asset, ref, project } = this.choose(model);
    const mimeType = asset.uploaded.mime_type as SampleMimeType;
    // What a part of another family answers is open (part-asset-family): only fitting parts are sent.
    const part = partFits(this.partType, mimeType) ? this.partType : familyOfType(mimeType);
    this.partUsed = part;
    const { reply, phase } = await about(asset, () => decideReferencing(clientOf(real, project), asset.id, part));
    met(real, this.name, project, asset, phase);
    const what = `a decision of project ${project} with ${part === 'image' || part === 'audio' ? 'an' : 'a'} ${part} part referencing ${whose(asset, ref, phase)}`;
    if (project !== asset.owner) {
      if (phase === 'active') expectError(reply, 403, 'ASSET_FORBIDDEN', 'decide');
      else expectNotSuccess(reply, `${what}: no other project uses an asset (seed 3 rule 1)`);
      return;
    }
    switch (phase) {
      case 'active':
        expectSuccess(reply, `for ${what} (seed 2.2)`);
        return;
      case 'expired':
        expectError(reply, 410, 'ASSET_EXPIRED', 'decide');
        return;
      case 'active-or-expired':
        if (!isSuccess(reply)) expectError(reply, 410, 'ASSET_EXPIRED', 'decide');
        return;
      case 'active-or-deleted':
        // Racing its deletion, the decision may come first (success) or after it (the code is open point asset-after-delete).
        return;
      case 'deleted':
        expectNotSuccess(reply, `${what} (seed 3; the code is open point asset-after-delete)`);
    }
  }

  toString(): string {
    return `ReferenceInDecide(${this.target}, ${this.partUsed ?? this.partType})`;
  }

  protected fresh(): ReferenceInDecide {
    return new ReferenceInDecide(this.actor, this.pick, this.projects, this.partType);
  }
}

export class GetUnknown extends AssetCommand {
  readonly name = 'GetUnknown';

  constructor(readonly project: Project) {
    super();
  }

  check(): boolean {
    return true;
  }

  protected async act(_model: AssetModel, real: RealSystem): Promise<void> {
    const reply = await clientOf(real, this.project).getAsset(unknownAssetId());
    expectError(reply, 404, 'ASSET_NOT_FOUND', 'getAsset');
  }

  toString(): string {
    return `GetUnknown(${this.project})`;
  }

  protected fresh(): GetUnknown {
    return this;
  }
}

/**
 * Sleeps until every short-lived asset uploaded so far (and not waited for yet) has surely passed
 * its expires_at: one wait expires them all. At most MAX_EXPIRY_WAIT_MS.
 */
export class WaitForExpiry extends AssetCommand {
  readonly name = 'WaitForExpiry';

  check(model: Readonly<AssetModel>): boolean {
    return model.waitsLeft > 0 && model.assets.some((asset) => asset.owner === 'S' && !asset.waitedFor);
  }

  protected async act(model: AssetModel, real: RealSystem): Promise<void> {
    const pending = model.assets.filter((asset) => asset.owner === 'S' && !asset.waitedFor);
    await sleep(Math.min(Math.max(0, surelyExpiredAt(pending) - Date.now()), MAX_EXPIRY_WAIT_MS));
    for (const asset of pending) asset.waitedFor = true;
    model.waitsLeft -= 1;
    real.exploration.waits += 1;
  }

  toString(): string {
    return 'WaitForExpiry';
  }

  protected fresh(): WaitForExpiry {
    return this;
  }
}

export interface CommandSet {
  /** Projects whose keys the target has: A and B, and S when it has a short-lived project. */
  projects: Project[];
  /** Decisions may reference assets (the target claims multimodal). */
  references: boolean;
  /** Uploads by S and expiry waits (the target has a short-lived project, and its lifetime fits the wait). */
  expiry: boolean;
  mimeTypes: readonly SampleMimeType[];
}

/** Which of the sequence's assets a command is about, counting back from the newest (modulo their count). */
const assetPick = fc.nat({ max: 7 });

/**
 * The commands to draw from, each as often as its weight (fc.commands draws uniformly from the
 * list). References weigh most: they are where the seed states most (2xx, 403, 410). Waits come
 * soon after a short-lived upload, leaving room for commands on the expired assets.
 */
export function commandArbitraries(set: CommandSet): Array<fc.Arbitrary<AssetCommand>> {
  const { projects } = set;
  const project = fc.constantFrom(...projects);
  /** 0: the asset's owner (half the time); 1 and up: another project. */
  const actor = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: projects.length - 1 }));
  const mimeType = fc.constantFrom(...set.mimeTypes);
  const partType = fc.constantFrom<MediaPartType>('image', 'document', 'audio');
  const weighted: Array<[number, fc.Arbitrary<AssetCommand>]> = [
    [2, fc.tuple(fc.constantFrom<Project>('A', 'B'), mimeType).map(([who, type]) => new Upload(who, type))],
    [2, fc.tuple(actor, assetPick).map(([who, pick]) => new Get(who, pick, projects))],
    [2, fc.tuple(actor, assetPick).map(([who, pick]) => new Delete(who, pick, projects))],
    [1, project.map((who) => new GetUnknown(who))],
  ];
  if (set.references) weighted.push([3, fc.tuple(actor, assetPick, partType).map(([who, pick, part]) => new ReferenceInDecide(who, pick, projects, part))]);
  if (set.expiry) weighted.push([2, mimeType.map((type) => new Upload('S', type))], [2, fc.constant(new WaitForExpiry())]);
  return weighted.flatMap(([weight, arbitrary]) => Array<fc.Arbitrary<AssetCommand>>(weight).fill(arbitrary));
}
