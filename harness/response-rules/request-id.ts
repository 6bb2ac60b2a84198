// Seed 2.7: every response carries X-Request-ID, of 1 to 128 allowed characters, and the
// caller's own when the caller sent a valid one.
import { schemaValidator } from '../../spec/index.ts';
import type { ResponseRule } from './rule.ts';

const requestIdShape = schemaValidator('RequestId', 'contract');

export const requestIdRules: ResponseRule[] = [
  {
    id: 'request-id',
    level: 'MUST',
    seedSections: ['2.7'],
    title: "X-Request-ID on every response, of 1 to 128 letters, digits, . _ : -, and the caller's own when the caller sent a valid one",
    appliesTo: 'every response',
    applies: () => true,
    judge(exchange) {
      const id = exchange.responseHeaders['x-request-id'];
      if (id === undefined) return { expected: 'an X-Request-ID header', observed: `none on a ${exchange.status} response` };
      if (!requestIdShape(id).valid) return { expected: 'an X-Request-ID of 1 to 128 letters, digits, . _ : -', observed: JSON.stringify(id) };
      const sent = exchange.requestHeaders['x-request-id'];
      if (sent !== undefined && requestIdShape(sent).valid && id !== sent)
        return { expected: `the caller's X-Request-ID ${JSON.stringify(sent)} returned`, observed: JSON.stringify(id) };
      return undefined;
    },
  },
];
