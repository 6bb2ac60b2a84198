// Seed 4: request and response bodies are JSON unless stated; a JSON body says so in its
// Content-Type, as HTTP labels every body (a SHOULD: the seed states JSON, HTTP the label).
import { hasBody, type ResponseRule } from './rule.ts';

const JSON_MEDIA_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

export const mediaTypeRules: ResponseRule[] = [
  {
    id: 'json-labelled',
    level: 'SHOULD',
    seedSections: ['4'],
    title: 'a JSON response body is labelled as JSON (Content-Type application/json or +json)',
    appliesTo: 'every response whose body is a JSON object or array',
    applies: (exchange) => hasBody(exchange) && typeof exchange.responseJson === 'object' && exchange.responseJson !== null,
    judge(exchange) {
      const type = exchange.responseHeaders['content-type'];
      return type !== undefined && JSON_MEDIA_TYPE.test(type)
        ? undefined
        : { expected: 'Content-Type application/json (or a +json type)', observed: type === undefined ? 'no Content-Type' : JSON.stringify(type) };
    },
  },
];
