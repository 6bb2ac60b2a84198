// A witness as one line a reviewer can run or read: a curl command for a request-side witness
// (the part set, everything else left to the reader), the value itself for a response.
import type { Json } from '../spec/index.ts';
import type { Witness } from './model.ts';

/** A shell word in single quotes: safe for any text. */
const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A parameter's value as it travels: arrays comma-separated (OpenAPI's default style, form/simple), objects as JSON. */
function wireText(value: Json): string {
  if (Array.isArray(value)) return value.map(wireText).join(',');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function witnessLine(witness: Witness): string {
  const [method = 'GET', path = '/'] = witness.operation.split(' ');
  const [location, ...rest] = witness.part.split(':');
  const name = rest.join(':');
  if (location === 'response') return `a ${witness.part} value valid now and not before: ${JSON.stringify(witness.value)}`;
  let url = path;
  const extra: string[] = [];
  if (location === 'path') url = url.replace(`{${name}}`, encodeURIComponent(wireText(witness.value)));
  if (location === 'query') url += `?${encodeURIComponent(name)}=${encodeURIComponent(wireText(witness.value))}`;
  if (location === 'header') extra.push(`-H ${quoted(`${name}: ${wireText(witness.value)}`)}`);
  if (location === 'cookie') extra.push(`-H ${quoted(`cookie: ${name}=${encodeURIComponent(wireText(witness.value))}`)}`);
  if (location === 'body') {
    extra.push(`-H ${quoted(`content-type: ${witness.mediaType ?? 'application/json'}`)}`);
    // A JSON media type carries the value as JSON; any other (an upload's bytes) carries a string as it is.
    const json = /\bjson\b|\+json\b/i.test(witness.mediaType ?? 'application/json');
    extra.push(`--data-raw ${quoted(!json && typeof witness.value === 'string' ? witness.value : JSON.stringify(witness.value))}`);
  }
  return [`curl -X ${method}`, `"$BASE_URL"${quoted(url)}`, ...extra].join(' ');
}
