// Ids the old run's server made (asset ids, request ids, feedback ids) mean nothing to a new
// server. As exchanges are replayed, each id of an old response is paired with the id at the
// same place in the new response, and later requests are rewritten to use the new ids.
import { isObject, type Json } from '../spec/index.ts';

// Bounded by characters ids cannot contain, not by \b: an asset id may end in "-" or "_", where
// \b would cut it one character short.
const SERVER_ID = /(?<![A-Za-z0-9_-])(?:asset_[A-Za-z0-9_-]{8,64}|req_[0-9a-fA-F]{6,}|fb_[0-9a-f]{6,})(?![A-Za-z0-9_-])/g;

export class IdentifierMap {
  private readonly mapped = new Map<string, string>();
  /** Ids that appeared in old responses: made by the old server. */
  private readonly madeByOldServer = new Set<string>();

  /**
   * Notes the ids an old response handed out (its X-Request-ID, and `id` / `request_id` fields),
   * whether or not the exchange gets replayed. Ids a request merely echoes back in a message
   * (an unknown asset id in a 404) are not the server's.
   */
  sawOldResponse(body: string, headers: Record<string, string>): void {
    const add = (value: Json | undefined) => {
      if (typeof value === 'string' && new RegExp(`^${SERVER_ID.source}$`).test(value)) this.madeByOldServer.add(value);
    };
    add(headers['x-request-id']);
    const walk = (node: Json) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (isObject(node)) for (const [key, value] of Object.entries(node)) key === 'id' || key === 'request_id' ? add(value) : walk(value);
    };
    try {
      walk(JSON.parse(body) as Json);
    } catch {
      // Not JSON: the header only.
    }
  }

  /** Pairs the ids of an old response with those at the same place in the new one. */
  pair(oldBody: string, newBody: string, oldHeaders: Record<string, string>, newHeaders: Record<string, string>): void {
    const oldId = oldHeaders['x-request-id'];
    const newId = newHeaders['x-request-id'];
    if (oldId && newId && oldId !== newId) this.mapped.set(oldId, newId);
    const walk = (a: Json | undefined, b: Json | undefined) => {
      if (typeof a === 'string' && typeof b === 'string' && a !== b && new RegExp(`^${SERVER_ID.source}$`).test(a)) this.mapped.set(a, b);
      else if (Array.isArray(a) && Array.isArray(b)) a.forEach((item, i) => walk(item, b[i]));
      else if (isObject(a) && isObject(b)) for (const key of Object.keys(a)) walk(a[key], b[key]);
    };
    try {
      walk(JSON.parse(oldBody) as Json, JSON.parse(newBody) as Json);
    } catch {
      // Not JSON (or an excerpt): only the header pairs.
    }
  }

  /** The text with every paired id replaced; `unknown` lists old-server ids that were never paired. */
  rewrite(text: string): { text: string; unknown: string[] } {
    const unknown = new Set<string>();
    const rewritten = text.replace(SERVER_ID, (id) => {
      const now = this.mapped.get(id);
      if (now !== undefined) return now;
      if (this.madeByOldServer.has(id)) unknown.add(id);
      return id;
    });
    return { text: rewritten, unknown: [...unknown] };
  }
}
