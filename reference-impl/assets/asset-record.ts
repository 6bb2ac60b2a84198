// What the store keeps per asset, and its on-disk form (<id>.json next to <id>.bin).
//
// A record outlives the asset's bytes: once an asset is deleted or its expired bytes are purged,
// the record stays as a tombstone, so the id keeps answering 'deleted' or 'expired' (and keeps
// its owner, so other projects keep getting 'forbidden') instead of becoming unknown.
import { isObject, schemaValidator, type Schemas } from '../../spec/index.ts';
import { isAssetId } from './asset-ids.ts';

export type AssetState = 'active' | 'deleted' | 'purged';

export interface AssetRecord {
  projectId: string;
  asset: Schemas['Asset'];
  /** 'purged': expired, bytes removed. An active asset past expires_at is expired but not yet purged. */
  state: AssetState;
  /** When the record left 'active' (ISO 8601). */
  stateChangedAt?: string;
}

interface MetadataFile {
  format: 1;
  project_id: string;
  state: AssetState;
  state_changed_at?: string;
  asset: Schemas['Asset'];
}

const validAsset = schemaValidator('Asset', 'reference');
const states: readonly AssetState[] = ['active', 'deleted', 'purged'];

export function serializeRecord(record: AssetRecord): string {
  const file: MetadataFile = { format: 1, project_id: record.projectId, state: record.state, asset: record.asset };
  if (record.stateChangedAt !== undefined) file.state_changed_at = record.stateChangedAt;
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The record in a metadata file, or why the file cannot be used. Never echoes the file's text. */
export function parseRecord(text: string, expectedId: string): AssetRecord | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'not valid JSON' };
  }
  if (!isObject(value) || value.format !== 1) return { problem: 'not an asset metadata file (format 1)' };
  if (typeof value.project_id !== 'string' || value.project_id === '') return { problem: 'no project_id' };
  if (typeof value.state !== 'string' || !states.includes(value.state as AssetState)) return { problem: 'unknown state' };
  const check = validAsset(value.asset);
  if (!check.valid) return { problem: `asset does not match the Asset schema (${check.issues[0]?.pointer || '/'})` };
  const asset = value.asset as unknown as Schemas['Asset'];
  if (asset.id !== expectedId || !isAssetId(asset.id)) return { problem: 'asset id does not match the file name' };
  const record: AssetRecord = { projectId: value.project_id, asset, state: value.state as AssetState };
  if (typeof value.state_changed_at === 'string') record.stateChangedAt = value.state_changed_at;
  return record;
}
