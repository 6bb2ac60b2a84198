// Builds the reference server: one Fastify instance, hooks for cross-cutting work (request ids,
// auth, errors), one module per route group.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { join } from 'node:path';
import { requestBodyLimitBytes } from '../../spec/index.ts';
import { createAudioReader } from '../assets/reading/audio.ts';
import { createAssetReader, type AssetReader, type AssetReaderOptions } from '../assets/reading/asset-reader.ts';
import { processDecodeBudget } from '../assets/reading/decode-budget.ts';
import { openAssetStore } from '../assets/store.ts';
import { createDecisionEngine, type DecisionEngine } from '../decision/index.ts';
import { installAuth } from './auth.ts';
import { checkDecideRequest } from './decide-request.ts';
import { openDecisionLog } from './decision-log.ts';
import { installErrorHandlers } from './error-handler.ts';
import { createKeyRing, type ProjectKeys } from './keys.ts';
import { installRateLimit, type RateLimitOptions } from './rate-limit.ts';
import { serverProfile, type ChoiceOverrides, type ProfileName, type ServerProfile } from './profile.ts';
import { installCallerRequestIdPolicy, requestIdFor } from './request-id.ts';
import { registerAssets, UPLOAD_PATH } from './routes/assets.ts';
import { registerDecide } from './routes/decide.ts';
import { registerFeedback } from './routes/feedback.ts';
import { registerModels } from './routes/models.ts';
import { registerService } from './routes/service.ts';
import { DEFAULT_ASSET_TTL_MS, DEFAULT_RATE_LIMIT } from './config.ts';

const PURGE_INTERVAL_MS = 60_000;

export interface ReferenceServerOptions {
  dataDir: string;
  projects: ProjectKeys[];
  assetTtlMs?: number;
  abstainMargin?: number;
  rateLimit?: RateLimitOptions;
  logger?: FastifyServerOptions['logger'];
  /** The clock, injectable so that tests can see assets expire. */
  now?: () => number;
  /** Which choice the server makes on the spec's open points (default: the reference choices). */
  profile?: ProfileName;
  /** Choices made on single open points over the profile's own (profile.ts). */
  choices?: ChoiceOverrides;
  /** How media files are read: time limit per asset, OCR concurrency, cache size, decode budget (assets/reading/). */
  reading?: AssetReaderOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The open-point choices this server makes (profile.ts). */
    profile: import('./profile.ts').ServerProfile;
  }
}

export interface ReferenceServer {
  app: FastifyInstance;
  engine: DecisionEngine;
  /** Reads media files into text; tests and benchmarks ask it whether an upload has been read. */
  reader: AssetReader;
}

/**
 * One decision before the server listens: the first caller should not be the one that pays for
 * compiling the request validators (ajv compiles on first use) and for the first session run.
 */
async function warmUp(engine: DecisionEngine, profile: ServerProfile): Promise<void> {
  const questions = { warm_up: { type: 'choice' as const, options: { a: 'a first decision', b: '' } } };
  if (checkDecideRequest({ context: 'A first decision.', questions }, profile))
    throw new Error("The warm-up request does not pass the server's own validation");
  await engine.decide('A first decision.', questions);
}

export async function createReferenceServer(options: ReferenceServerOptions): Promise<ReferenceServer> {
  const now = options.now ?? Date.now;
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: requestIdFor,
    bodyLimit: requestBodyLimitBytes,
    // Question and option ids are the caller's own strings, "__proto__" included (seed 2.1):
    // JSON.parse keeps such keys as plain own properties, and the server never merges objects.
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
    // Keep answering in-flight keep-alive requests while closing, in the seed's error body if at all.
    return503OnClosing: false,
    routerOptions: { maxParamLength: 1000 },
  });

  const engine = await createDecisionEngine(options.abstainMargin !== undefined ? { abstainMargin: options.abstainMargin } : {});
  // One decode budget for every reader, the process's (decode-budget.ts): the memory ceiling is
  // the server's (assets/memory-limits.ts), and the memory it guards is the process's.
  const budget = options.reading?.budget ?? processDecodeBudget();
  // The audio worker starts with the first audio file, not here: a server start pays nothing for it.
  const audio = createAudioReader({ budget });
  const assets = await openAssetStore({ dataDir: options.dataDir, ttlMs: options.assetTtlMs ?? DEFAULT_ASSET_TTL_MS, now });
  const reader = createAssetReader({ ...options.reading, budget });
  const decisions = openDecisionLog(join(options.dataDir, 'decisions'), (file, line) => app.log.warn({ file, line }, 'skipped a corrupt record'));
  const clock = () => new Date(now());
  app.decorate('profile', serverProfile(options.profile ?? 'reference', options.choices));
  await warmUp(engine, app.profile);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandlers(app, UPLOAD_PATH);
  installCallerRequestIdPolicy(app);
  registerService(app);

  await app.register(async (v1) => {
    // JSON endpoints take application/json, and whatever else the profile reads as JSON (open point json-content-type).
    v1.removeContentTypeParser('text/plain');
    for (const type of app.profile.jsonAlsoAccepts) v1.addContentTypeParser(type, { parseAs: 'string' }, v1.getDefaultJsonParser('ignore', 'ignore'));
    installAuth(v1, createKeyRing(options.projects));
    // The alternate choice of open point rate-limits: no limit below the service's capacity.
    if (app.profile.rateLimited) await installRateLimit(v1, options.rateLimit ?? DEFAULT_RATE_LIMIT, now);
    registerDecide(v1, { engine, assets, audio, decisions, reader, now: clock });
    registerFeedback(v1, { decisions, now: clock });
    registerModels(v1);
    const projectTtl = new Map(options.projects.flatMap((project) => (project.assetTtlMs ? [[project.projectId, project.assetTtlMs] as const] : [])));
    const serverTtl = options.assetTtlMs ?? DEFAULT_ASSET_TTL_MS;
    await registerAssets(v1, { assets, audio, reader, ttlOf: (projectId) => projectTtl.get(projectId) ?? serverTtl });
  });

  const purge = setInterval(() => {
    Promise.resolve(assets.purgeExpired()).catch((error: Error) => app.log.error({ err: { name: error.name, stack: error.stack } }, 'asset purge failed'));
  }, PURGE_INTERVAL_MS);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    await decisions.close();
    await engine.close();
    await audio.close();
    await reader.close();
  });
  return { app, engine, reader };
}
