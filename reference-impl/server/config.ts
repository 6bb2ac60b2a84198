// Configuration of the reference server: flags, environment, and a small keys file.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultAssetLifetimeMs } from '../../spec/index.ts';
import { KEY_PREFIX, type ProjectKeys } from './keys.ts';
import { choiceOverrides, profileName, type ChoiceOverrides, type ProfileName } from './profile.ts';
import type { RateLimitOptions } from './rate-limit.ts';

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  projects: ProjectKeys[];
  assetTtlMs: number;
  abstainMargin?: number;
  rateLimit: RateLimitOptions;
  logLevel: string;
  profile: ProfileName;
  choices: ChoiceOverrides;
}

/** Lifetime of the assets of the development project whose uploads expire quickly. */
export const DEV_EXPIRY_TTL_SECONDS = 3;

/**
 * Development keys: two projects, so that isolation can always be tried, and a third whose
 * assets expire within seconds, so that expiry can be tried against a separately started server.
 * Printed at start; for local use only. Real deployments pass --keys-file or DECISION_KEYS.
 */
export const DEV_PROJECTS: ProjectKeys[] = [
  { projectId: 'proj_dev_a', keys: [`${KEY_PREFIX}dev_project_a_0123456789abcdef`] },
  { projectId: 'proj_dev_b', keys: [`${KEY_PREFIX}dev_project_b_fedcba9876543210`] },
  { projectId: 'proj_dev_expiry', keys: [`${KEY_PREFIX}dev_project_expiry_00ff00ff00ff`], assetTtlMs: DEV_EXPIRY_TTL_SECONDS * 1000 },
];

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { perSecond: 200, burst: 400 };
export const DEFAULT_ASSET_TTL_MS = defaultAssetLifetimeMs;

/** Parses `proj_a=svc_live_x,svc_live_y;proj_b=svc_live_z`. */
export function parseKeyList(text: string): ProjectKeys[] {
  return text
    .split(';')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [projectId, keys] = entry.split('=', 2);
      if (!projectId || !keys) throw new Error(`Keys entry "${entry.replace(/=.*/, '=…')}" is not project=key[,key]`);
      return {
        projectId: projectId.trim(),
        keys: keys
          .split(',')
          .map((key) => key.trim())
          .filter(Boolean),
      };
    })
    .map(checkProject);
}

/**
 * Reads a keys file: `{"projects": [{"id": "proj_a", "keys": ["svc_live_..."], "asset_ttl_seconds": 5}]}`;
 * `asset_ttl_seconds` is optional and gives that project's uploads a shorter lifetime.
 */
export function readKeysFile(path: string): ProjectKeys[] {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { projects?: Array<{ id?: unknown; keys?: unknown; asset_ttl_seconds?: unknown }> };
  if (!Array.isArray(parsed.projects)) throw new Error(`${path}: expected {"projects": [{"id": ..., "keys": [...]}]}`);
  return parsed.projects.map((project) => {
    const ttl = project.asset_ttl_seconds;
    if (ttl !== undefined && (typeof ttl !== 'number' || !(ttl > 0)))
      throw new Error(`${path}: asset_ttl_seconds of ${String(project.id)} must be a positive number`);
    return checkProject({
      projectId: String(project.id),
      keys: Array.isArray(project.keys) ? project.keys.map(String) : [],
      ...(typeof ttl === 'number' ? { assetTtlMs: ttl * 1000 } : {}),
    });
  });
}

function checkProject(project: ProjectKeys): ProjectKeys {
  if (project.keys.length === 0) throw new Error(`Project ${project.projectId} has no keys`);
  for (const key of project.keys) {
    if (!key.startsWith(KEY_PREFIX) || key.length === KEY_PREFIX.length)
      throw new Error(`Project ${project.projectId}: keys must look like ${KEY_PREFIX}<secret>`);
  }
  return project;
}

export const USAGE = `Usage: decision-conformance serve [options]   (in a clone of the kit: npm run serve -- [options])

  --port N                 port to listen on (env PORT; default 8080; 0 picks a free one)
  --host HOST              address to bind (env HOST; default 127.0.0.1)
  --data-dir DIR           where assets, decisions and feedback are stored (env DECISION_DATA_DIR; default .data/reference)
  --keys-file FILE         JSON keys file: {"projects": [{"id": "proj_a", "keys": ["svc_live_..."]}]} (env DECISION_KEYS_FILE)
  --keys LIST              proj_a=svc_live_x;proj_b=svc_live_y (env DECISION_KEYS); default: two development projects
  --asset-ttl-seconds N    asset lifetime (env DECISION_ASSET_TTL_SECONDS; default 86400)
  --abstain-margin X       abstain when top-1 minus top-2 probability is below X (env DECISION_ABSTAIN_MARGIN)
  --rate-limit N[/BURST]   requests per second per key, and burst (env DECISION_RATE_LIMIT; default 200/400)
  --log-level LEVEL        pino level: fatal, error, warn, info, debug (env LOG_LEVEL; default info)
  --profile NAME           reference (default) or alternate: the other choice the seed allows on each open point (env DECISION_PROFILE)
  --choice ID=NAME         make choice NAME on open point ID over the profile's (repeatable), e.g. --choice upload-body-limit=alternate
  --help, -h               print this help`;

export function configFrom(argv: string[], env: NodeJS.ProcessEnv): ServerConfig | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'keys-file': { type: 'string' },
      keys: { type: 'string' },
      'asset-ttl-seconds': { type: 'string' },
      'abstain-margin': { type: 'string' },
      'rate-limit': { type: 'string' },
      'log-level': { type: 'string' },
      profile: { type: 'string' },
      choice: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const number = (name: string, text: string | undefined, fallback: number): number => {
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got "${text}"`);
    return value;
  };
  const keysFile = values['keys-file'] ?? env.DECISION_KEYS_FILE;
  const keyList = values.keys ?? env.DECISION_KEYS;
  const [perSecond, burst] = (values['rate-limit'] ?? env.DECISION_RATE_LIMIT ?? '').split('/');
  const abstainMargin = values['abstain-margin'] ?? env.DECISION_ABSTAIN_MARGIN;
  const rateLimitPerSecond = number('rate-limit', perSecond, DEFAULT_RATE_LIMIT.perSecond);
  return {
    port: number('port', values.port ?? env.PORT, 8080),
    host: values.host ?? env.HOST ?? '127.0.0.1',
    dataDir: values['data-dir'] ?? env.DECISION_DATA_DIR ?? '.data/reference',
    projects: keysFile ? readKeysFile(keysFile) : keyList ? parseKeyList(keyList) : DEV_PROJECTS,
    assetTtlMs: number('asset-ttl-seconds', values['asset-ttl-seconds'] ?? env.DECISION_ASSET_TTL_SECONDS, DEFAULT_ASSET_TTL_MS / 1000) * 1000,
    ...(abstainMargin !== undefined ? { abstainMargin: number('abstain-margin', abstainMargin, 0) } : {}),
    rateLimit: { perSecond: rateLimitPerSecond, burst: number('rate-limit', burst, Math.max(DEFAULT_RATE_LIMIT.burst, rateLimitPerSecond)) },
    logLevel: values['log-level'] ?? env.LOG_LEVEL ?? 'info',
    profile: profileName(values.profile ?? env.DECISION_PROFILE),
    choices: choiceOverrides(values.choice ?? []),
  };
}
