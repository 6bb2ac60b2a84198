// What a check gets: the target, HTTP with each key, and ways to fail, skip and observe. The check
// model (check.ts) builds on this module and re-exports what is declared here; nothing here imports it.
import type { Dispatcher } from 'undici';
import type { CoverageRecord } from './coverage.ts';
import type { Http, Reply, SentRequest } from './http.ts';
import { DEFAULT_CONCURRENCY } from './overlap.ts';

/** Parts of the API the seed calls planned in one place and current in another (open point availability). */
export type Capability = 'multimodal' | 'assets' | 'noul' | 'score' | 'multi';
export const ALL_CAPABILITIES: readonly Capability[] = ['multimodal', 'assets', 'noul', 'score', 'multi'];

export interface Observation {
  /** What the server did, in a few words (e.g. "status 200"). */
  summary: string;
  /** The matching reference choice, from the spec's open point. */
  reference?: string;
  /** True when the server did what the reference server does. */
  matchesReference?: boolean;
}

/** Thrown by a check body to fail: states what was expected and what was observed. */
export class CheckFailure extends Error {
  constructor(
    readonly expected: string,
    readonly observed: string,
  ) {
    super(`Expected ${expected}; observed ${observed}.`);
    this.name = 'CheckFailure';
  }
}

/** Thrown by a check body that cannot run against this target, with the reason. */
export class CheckSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CheckSkipped';
  }
}

export interface Target {
  baseUrl: string;
  /** Capabilities the target claims (default: all). */
  capabilities: ReadonlySet<Capability>;
  /** Whether a key of a second project was given. */
  hasSecondKey: boolean;
  /**
   * A key of a project whose assets expire quickly, and that lifetime, when the target has one
   * (the embedded reference server does; others via --expiry-api-key and --expiry-ttl-seconds).
   * Without it, expiry cannot be seen within a run.
   */
  shortTtl?: { key: string; ttlMs: number };
  /** Headers every request to the target carries (--header, --header-secret): a gateway's, not the API's. */
  headers?: Readonly<Record<string, string>>;
  /** How requests reach the target: a proxy, a CA to trust (connection.ts); absent: as Node sends them. */
  dispatcher?: Dispatcher;
}

/** One project's view of the API. */
export interface ApiClient {
  send(request: Omit<SentRequest, 'key'>): Promise<Reply>;
  decide(body: unknown, headers?: Record<string, string>): Promise<Reply>;
  upload(bytes: string | Uint8Array, contentType: string | undefined): Promise<Reply>;
  getAsset(assetId: string): Promise<Reply>;
  deleteAsset(assetId: string): Promise<Reply>;
}

export interface CheckContext {
  target: Target;
  /** Seed of generated inputs (--seed): the same seed reproduces a run's inputs exactly. */
  seed: number;
  /** Budget of generated cases per property (--num-runs); undefined means each property's default. */
  numRuns?: number;
  /** How many requests the concurrency checks aim to keep in flight together (--concurrency). */
  concurrency: number;
  /**
   * How many requests of the run may be in flight at once (--workers): a check whose requests share
   * no state sends up to this many together (the coverage phase's cases); the run's slots bound the rest.
   */
  workers: number;
  /** Calls with the first project's key. */
  a: ApiClient;
  /** Calls with the second project's key; only for checks that declare `requires.secondKey`. */
  b: ApiClient;
  /** Calls with the short-lifetime project's key, when the target has one (see Target.shortTtl). */
  expiring?: { client: ApiClient; ttlMs: number };
  /**
   * The first project's key itself, for checks that send near misses of it (a character
   * changed, another scheme). Results are redacted, near misses included (redaction.ts).
   */
  keyA: string;
  /** Calls with no Authorization header at all. */
  anonymous: ApiClient;
  /** Calls with an arbitrary Authorization value (or none). */
  withKey(key: string | null): ApiClient;
  /** Fails the check: what the seed requires, and what the server did. */
  fail(expected: string, observed: string): never;
  /** Skips the check with a reason a person can act on. */
  skip(reason: string): never;
  /** Records what the server does on an open point (OBSERVE checks). */
  observe(observation: Observation): void;
  /** Adds a line of context to the result. */
  note(text: string): void;
  /** Counts cases of the coverage phase against the keywords and HTTP dimensions they exercise (the run's `coverage`). */
  cover(records: readonly CoverageRecord[]): void;
  /** Tells the person running the kit what a check is waiting for (a long wait, e.g. for assets to expire). */
  announce(text: string): void;
  /**
   * Work done once per run and shared by the checks that need it (one wait for uploaded assets to
   * expire serves every expiry check): the first call runs `make`, later ones get its outcome.
   */
  shared<T>(name: string, make: () => Promise<T>): Promise<T>;
  /**
   * For a check that starts among the others (Check.startsAmongOthers): waits until it has the
   * server to itself, and from then on its requests take none of the run's slots. For a check
   * that runs alone from its start, at once; a check that shares the server cannot ask for it.
   */
  alone(): Promise<void>;
  /**
   * Aborted when the check's time is up or it has finished: every request of `a`, `b`,
   * `anonymous` and `withKey` already honours it; a check that waits on its own passes it on.
   */
  signal: AbortSignal;
}

/** What the checks of one run share (see CheckContext.shared). */
export type SharedWork = Map<string, Promise<unknown>>;

export function apiClient(http: Http, key: string | null): ApiClient {
  const send = (request: Omit<SentRequest, 'key'>) => http({ ...request, key });
  return {
    send,
    decide: (body, headers) => send({ method: 'POST', path: '/v1/decide', json: body, ...(headers ? { headers } : {}) }),
    upload: (bytes, contentType) => send({ method: 'POST', path: '/v1/assets', raw: bytes, ...(contentType !== undefined ? { contentType } : {}) }),
    getAsset: (assetId) => send({ method: 'GET', path: `/v1/assets/${encodeURIComponent(assetId)}` }),
    deleteAsset: (assetId) => send({ method: 'DELETE', path: `/v1/assets/${encodeURIComponent(assetId)}` }),
  };
}

export interface ContextParts {
  target: Target;
  seed: number;
  numRuns?: number;
  /** See CheckContext.concurrency; default DEFAULT_CONCURRENCY. */
  concurrency?: number;
  /** See CheckContext.workers; default 1. */
  workers?: number;
  http: Http;
  keyA: string;
  keyB?: string;
  observe(observation: Observation): void;
  note(text: string): void;
  cover?(records: readonly CoverageRecord[]): void;
  announce?(text: string): void;
  /** Shared across the checks of a run; a fresh one makes a check share nothing. */
  sharedWork?: SharedWork;
  /** The check's signal (see CheckContext.signal); the one `http` honours. */
  signal?: AbortSignal;
  /** See CheckContext.alone; default: at once (a check run on its own has the server to itself). */
  alone?(): Promise<void>;
}

export function createCheckContext({
  target,
  seed,
  numRuns,
  concurrency = DEFAULT_CONCURRENCY,
  workers = 1,
  http,
  keyA,
  keyB,
  observe,
  note,
  cover,
  announce,
  sharedWork = new Map(),
  signal = new AbortController().signal,
  alone = () => Promise.resolve(),
}: ContextParts): CheckContext {
  const a = apiClient(http, keyA);
  const missingB: ApiClient = new Proxy({} as ApiClient, {
    get() {
      throw new CheckSkipped('needs a key of a second project (--api-key-b or DECISION_API_KEY_B)');
    },
  });
  return {
    target,
    seed,
    ...(numRuns !== undefined ? { numRuns } : {}),
    concurrency,
    workers,
    a,
    b: keyB ? apiClient(http, keyB) : missingB,
    ...(target.shortTtl ? { expiring: { client: apiClient(http, target.shortTtl.key), ttlMs: target.shortTtl.ttlMs } } : {}),
    keyA,
    anonymous: apiClient(http, null),
    withKey: (key) => apiClient(http, key),
    fail(expected, observed) {
      throw new CheckFailure(expected, observed);
    },
    skip(reason) {
      throw new CheckSkipped(reason);
    },
    observe,
    note,
    cover: (records) => cover?.(records),
    announce: (text) => announce?.(text),
    shared<T>(name: string, make: () => Promise<T>): Promise<T> {
      if (!sharedWork.has(name)) sharedWork.set(name, make());
      return sharedWork.get(name) as Promise<T>;
    },
    alone,
    signal,
  };
}
