// API keys (seed 5): `svc_live_<secret>`, each bound to one project. Compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import { apiKeyPrefix } from '../../spec/index.ts';

/** The prefix the spec records (x-key-prefix). */
export const KEY_PREFIX = apiKeyPrefix;

export interface ProjectKeys {
  projectId: string;
  keys: string[];
  /**
   * A shorter asset lifetime for this project's uploads (open point asset-ttl: server
   * configuration). Lets a test project see assets expire while others keep the 24 h default.
   */
  assetTtlMs?: number;
}

export interface KeyRing {
  /** The project of a key, or undefined for an unknown key. */
  projectOf(key: string): string | undefined;
}

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export function createKeyRing(projects: ProjectKeys[]): KeyRing {
  // Keys are kept as fixed-length digests so that every comparison takes the same time,
  // whatever the length of the key presented, and every known key is always compared.
  const entries = projects.flatMap(({ projectId, keys }) => keys.map((key) => ({ projectId, digest: digest(key) })));
  return {
    projectOf(key) {
      const presented = digest(key);
      let found: string | undefined;
      for (const entry of entries) {
        if (timingSafeEqual(presented, entry.digest) && found === undefined) found = entry.projectId;
      }
      return found;
    },
  };
}

/** The key of an `Authorization: Bearer <key>` header, or undefined when missing or malformed. */
export function bearerKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  const key = match?.[1];
  return key?.startsWith(KEY_PREFIX) && key.length > KEY_PREFIX.length ? key : undefined;
}
