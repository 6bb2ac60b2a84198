// The operations of the API, derived from the paths of the spec.
import { deref, isObject, openapiDocument, type Json, type JsonObject } from './document.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** The path template, e.g. "/v1/assets/{asset_id}". */
  path: string;
  /** True when the operation needs `Authorization: Bearer svc_live_...`. */
  requiresKey: boolean;
  /** Documented response statuses, as numbers, in document order. */
  statuses: number[];
  /** Media types the request body may be sent as (empty without a body). */
  requestMediaTypes: string[];
  seedSections: string[];
  /** The open point this operation as a whole depends on, if any. */
  openPoint?: string;
  /** The raw operation object. */
  definition: JsonObject;
}

const METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

function collectOperations(): Operation[] {
  const globalSecurity = openapiDocument.security as Json[] | undefined;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(openapiDocument.paths as JsonObject)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const security = (op.security ?? globalSecurity ?? []) as Json[];
      const body = op.requestBody ? deref(op.requestBody as JsonObject) : undefined;
      operations.push({
        operationId: String(op.operationId),
        method,
        path,
        requiresKey: security.some((requirement) => isObject(requirement) && Object.keys(requirement).length > 0),
        statuses: Object.keys(op.responses as JsonObject).map(Number),
        requestMediaTypes: body && isObject(body.content) ? Object.keys(body.content) : [],
        seedSections: (op['x-seed-section'] as string[] | undefined) ?? [],
        ...(typeof op['x-open-point'] === 'string' ? { openPoint: op['x-open-point'] } : {}),
        definition: op,
      });
    }
  }
  return operations;
}

export const operations: readonly Operation[] = collectOperations();

export function operation(operationId: string): Operation {
  const found = operations.find((op) => op.operationId === operationId);
  if (!found) throw new Error(`No operation ${operationId} in the spec`);
  return found;
}

/** The documented response object of an operation for a status, with $refs followed. */
export function documentedResponse(operationId: string, status: number): JsonObject | undefined {
  const responses = operation(operationId).definition.responses as JsonObject;
  const response = responses[String(status)];
  return response ? deref(response as JsonObject) : undefined;
}
