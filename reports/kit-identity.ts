// The kit's name and version, read once from its package.json: what `--version` prints and every report records.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../harness/kit-files.ts';

export interface KitIdentity {
  name: string;
  version: string;
}

/** The parts of the kit's package.json the kit reads at run time. */
export interface KitManifest extends KitIdentity {
  peerDependencies: Record<string, string>;
}

export const kitManifest: Readonly<KitManifest> = Object.freeze(JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as KitManifest);

export const kitIdentity: Readonly<KitIdentity> = Object.freeze({ name: kitManifest.name, version: kitManifest.version });
