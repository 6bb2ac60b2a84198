// Seed 7: every error is answered in the one error body, with a code from the seed's list, the
// code's stated status where the seed states one, and error.request_id equal to X-Request-ID (or
// null: when it may be null is open point error-request-id-null).
import { errorCodes, schemaValidator } from '../../spec/index.ts';
import { hasBody, isError, type ResponseRule } from './rule.ts';

const errorShape = schemaValidator('Error', 'contract');
const statedStatus = new Map(errorCodes.map((entry) => [entry.code, entry.statedStatus]));

const excerpt = (text: string) => JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text);

export const errorRules: ResponseRule[] = [
  {
    id: 'error-body',
    level: 'MUST',
    seedSections: ['7', '4.5', '5'],
    title: "every error in the seed's error body, with a code from its list and the code's stated status",
    appliesTo: 'every 4xx and 5xx response with a body (not to HEAD)',
    applies: (exchange) => isError(exchange) && hasBody(exchange),
    judge(exchange) {
      if (exchange.responseJson === undefined)
        return { expected: 'a JSON error body', observed: `a ${exchange.status} with body ${excerpt(exchange.responseText)}` };
      const result = errorShape(exchange.responseJson);
      if (!result.valid)
        return {
          expected: 'the error body of seed section 7',
          observed: result.issues
            .slice(0, 3)
            .map((issue) => issue.message)
            .join('; '),
        };
      const code = (exchange.responseJson as { error: { code: string } }).error.code;
      const stated = statedStatus.get(code);
      if (stated !== null && stated !== undefined && stated !== exchange.status)
        return { expected: `status ${stated} for ${code}`, observed: `status ${exchange.status}` };
      return undefined;
    },
  },
  {
    id: 'error-request-id',
    level: 'MUST',
    seedSections: ['7'],
    title: 'error.request_id equal to the X-Request-ID header (or null)',
    appliesTo: 'every error body that has error.request_id',
    applies: (exchange) => isError(exchange) && hasBody(exchange) && requestIdOf(exchange.responseJson) !== undefined,
    judge(exchange) {
      const id = requestIdOf(exchange.responseJson);
      const header = exchange.responseHeaders['x-request-id'];
      return id === null || id === header
        ? undefined
        : { expected: `error.request_id ${JSON.stringify(header)} (the X-Request-ID header) or null`, observed: JSON.stringify(id) };
    },
  },
];

function requestIdOf(body: unknown): unknown {
  const error = (body as { error?: unknown } | undefined)?.error;
  return typeof error === 'object' && error !== null && 'request_id' in error ? (error as { request_id: unknown }).request_id : undefined;
}
