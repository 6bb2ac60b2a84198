// Seeds 2, 4 and 7 as the spec's contract form encodes them: a response of a known operation
// meets the schema the spec gives for its operation and status, every open point relaxed (errors
// are judged by error-body).
import { operation, responseSchemaFor, validateResponseBody } from '../../spec/index.ts';
import type { ResponseRule } from './rule.ts';

export const contractRules: ResponseRule[] = [
  {
    id: 'contract-body',
    level: 'MUST',
    seedSections: ['2', '4'],
    title: 'body valid against the contract form of the spec for its operation and status',
    appliesTo: 'every non-error response (not to HEAD) of an operation of the spec, spelt as the spec spells it, for which the spec gives a schema',
    applies: (exchange) =>
      exchange.operationId !== undefined &&
      exchange.status < 400 &&
      exchange.method !== 'HEAD' &&
      responseSchemaFor(exchange.operationId, exchange.status) !== undefined,
    judge(exchange) {
      // An operation whose whole shape is an open point (feedback-shape) may answer with no body at all (204).
      if (exchange.responseText === '' && operation(exchange.operationId!).openPoint !== undefined) return undefined;
      if (exchange.responseJson === undefined)
        return {
          expected: `a JSON body for ${exchange.operationId}`,
          observed: exchange.responseText === '' ? `no body (status ${exchange.status})` : JSON.stringify(exchange.responseText.slice(0, 160)),
        };
      const result = validateResponseBody(exchange.operationId!, exchange.status, exchange.responseJson, 'contract');
      if (!result || result.valid) return undefined;
      return {
        expected: `a ${result.schemaName} body (contract form)`,
        observed: result.issues
          .slice(0, 3)
          .map((issue) => issue.message)
          .join('; '),
      };
    },
  },
];
