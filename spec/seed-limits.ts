// Figures of the seed recorded in x-seed-limits: those no schema keyword can carry (the body limit,
// the default asset lifetime, the model names), and where each limit a keyword carries applies.
import { openapiDocument, type JsonObject } from './document.ts';

const limits = openapiDocument['x-seed-limits'] as JsonObject;

/** Seed 4.1 and 8: a request body is at most 256 KiB. */
export const requestBodyLimitBytes = limits.request_body_bytes as number;
/** Seed 2.5 and 8: an asset expires 24 hours after upload by default. */
export const defaultAssetLifetimeMs = (limits.asset_default_lifetime_seconds as number) * 1000;
/** Seed 2.6: the current model and its aliases. */
export const currentModel = limits.current_model as string;
export const modelAliases = limits.model_aliases as readonly string[];
/** Seed 1 and 8: the first request after a period without traffic can take up to about 2 minutes. */
export const coldStartAllowanceMs = (limits.cold_start_seconds as number) * 1000;
/** Seed 1 and 8: callers use client timeouts of at least 180 s. */
export const clientTimeoutMs = (limits.client_timeout_seconds as number) * 1000;

/** A limit a schema keyword carries: the schema it applies to and the keywords with their values. */
export interface SchemaKeywordLimit {
  /** Local reference to the schema, e.g. "#/components/schemas/Questions". */
  schema: string;
  keywords: JsonObject;
}

/** Seed 2.1, 2.2, 2.7 and 8: limits carried by schema keywords, by name (questions_per_request, ...). */
export const schemaKeywordLimits: Readonly<Record<string, SchemaKeywordLimit>> = Object.fromEntries(
  Object.entries(limits.schema_keywords as JsonObject).map(([name, entry]) => {
    const { schema, keywords } = entry as JsonObject;
    return [name, { schema: schema as string, keywords: keywords as JsonObject }];
  }),
);
