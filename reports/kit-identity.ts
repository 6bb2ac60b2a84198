// The kit's name and version, read once from its package.json: what `--version` prints and every report records.
import { readFileSync } from 'node:fs';

export interface KitIdentity {
  name: string;
  version: string;
}

export const kitIdentity: Readonly<KitIdentity> = (() => {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as KitIdentity;
  return Object.freeze({ name: manifest.name, version: manifest.version });
})();
