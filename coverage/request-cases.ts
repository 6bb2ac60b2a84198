// The cases around a body: every parameter of every operation (its keywords, as for a body's
// nodes), and every HTTP dimension the spec gives, crossed with the operations: Accept, the
// Content-Type's parameters and letter case, the body's framing at and one byte past each size
// limit the spec states, and for uploads every accepted media type empty, one byte long, at its
// family's limit and one byte past it. Each changes one thing of a request that passes.
import type { Capability } from '../harness/check.ts';
import type { CoverageRecord, UntestableEntry } from '../harness/coverage.ts';
import { acceptedSamples, sizeLimitReadings } from '../harness/samples/media.ts';
import {
  acceptedMimeTypes,
  constraintKeywords,
  familyOfMimeType,
  openPoint,
  operation,
  requestBodyLimitBytes,
  requestBodySchemaName,
  requestParameters,
  resolvedSchema,
  type AssetMimeType,
  type RequestParameter,
} from '../spec/index.ts';
import type { BaseRequest, CaseRequest, CoverageCase, Expectation } from './case.ts';
import { lengthCases, offPattern } from './values.ts';
import { reachableSize, sampleOfSize, SIZABLE_TYPES } from './sized-samples.ts';

/** How to send a passing request of one operation; `prepare` makes a fresh one (a DELETE needs its own asset). */
export interface OperationBase {
  operation: string;
  prepare(): Promise<CaseRequest>;
  /** Whether the passing request's success is itself an open point (feedback): its cases' successes are then observed. */
  openSuccess?: string;
  requires: readonly Capability[];
}

const ANSWERED: Expectation = { kind: 'answered' };
const REFUSED: Expectation = { kind: 'refused' };

/** Requests whose Accept admits JSON: answered as without the header (open point accept-without-json, its bound). */
export const ACCEPTS_JSON = ['*/*', 'application/json', 'application/json;q=0.9, */*;q=0.1', 'text/html;q=1.0, application/json;q=0.5'] as const;
/** Requests whose Accept admits no JSON: answered or refused, as the server chooses (open point accept-without-json). */
export const ACCEPTS_NO_JSON = ['text/html', 'application/xml', 'text/html,application/xhtml+xml;q=0.9'] as const;

const ACCEPT_POINT = openPoint('accept-without-json').id;

interface Emit {
  base: BaseRequest;
  add(name: string, request: () => Promise<CaseRequest>, records: CoverageRecord[], expectation: Expectation, anonymous?: boolean): void;
}

function emitter(op: OperationBase, cases: CoverageCase[], label: string): Emit {
  const base: BaseRequest = { key: `${op.operation} ${label}`, operation: op.operation, request: op.prepare, requires: op.requires };
  return {
    base,
    add(name, request, records, expectation, anonymous) {
      cases.push({
        name,
        operation: op.operation,
        base: base.key,
        prepare: request,
        records,
        expectation,
        requires: op.requires,
        ...(anonymous ? { anonymous } : {}),
      });
    },
  };
}

/** A success the seed requires, unless the operation's success is itself open. */
const answeredFor = (op: OperationBase): Expectation => (op.openSuccess ? { kind: 'observed', openPoint: op.openSuccess } : ANSWERED);

const keyword = (op: string, parameter: RequestParameter, name: string, polarity: 'positive' | 'negative'): CoverageRecord => ({
  kind: 'keyword',
  operation: op,
  location: parameter.in === 'cookie' ? 'header' : parameter.in,
  pointer: parameter.name,
  keyword: name,
  polarity,
});

const dimension = (op: string, name: string, value: string): CoverageRecord => ({ kind: 'dimension', operation: op, dimension: name, value });

/** The request with one header set (names compared without case), or removed with undefined. */
function withHeader(request: CaseRequest, name: string, value: string | undefined): CaseRequest {
  const headers = Object.fromEntries(Object.entries(request.headers ?? {}).filter(([key]) => key.toLowerCase() !== name.toLowerCase()));
  return { ...request, headers: value === undefined ? headers : { ...headers, [name]: value } };
}

/** The request with its path's parameter replaced (the value percent-encoded, as a client library would). */
function withPathValue(request: CaseRequest, template: string, name: string, value: string): CaseRequest {
  const prefix = template.slice(0, template.indexOf(`{${name}}`));
  return { ...request, path: `${prefix}${encodeURIComponent(value)}${request.path.slice(prefix.length).replace(/^[^/?]*/, '')}` };
}

/** The parameter cases of one operation: each keyword of each parameter's schema, at its bounds and past them. */
function parameterCases(op: OperationBase, emit: Emit): void {
  const spec = operation(op.operation);
  for (const parameter of requestParameters(op.operation)) {
    const { schema } = resolvedSchema(parameter.schema);
    const keywords = constraintKeywords(schema);
    const negative: Expectation = parameter.invalidValue
      ? parameter.invalidValue.neverSuccess
        ? REFUSED
        : { kind: 'observed', openPoint: parameter.invalidValue.openPoint }
      : REFUSED;
    // The request with the parameter's value replaced; the same for every case of the parameter.
    const placed = (request: CaseRequest, value: string): CaseRequest => {
      if (parameter.in === 'header') return withHeader(request, parameter.name, value);
      if (parameter.in === 'path') return withPathValue(request, spec.path, parameter.name, value);
      return { ...request, path: `${request.path}${request.path.includes('?') ? '&' : '?'}${encodeURIComponent(parameter.name)}=${encodeURIComponent(value)}` };
    };
    const put = async (value: string) => placed(await op.prepare(), value);
    const where = `${parameter.in} ${parameter.name}`;
    // The JSON types of a parameter are listed untestable by the tally (tally.ts), not here.
    const example = typeof parameter.example === 'string' ? parameter.example : undefined;
    if (parameter.in === 'header' && example !== undefined)
      emit.add(
        `${where}: the example ${JSON.stringify(example)}`,
        () => put(example),
        keywords.filter((name) => name === 'pattern').map((name) => keyword(op.operation, parameter, name, 'positive')),
        answeredFor(op),
      );
    for (const { keyword: name, length, value, within } of lengthCases(schema))
      emit.add(
        `${where} ${name}: ${length} characters`,
        () => put(value),
        [keyword(op.operation, parameter, name, within ? 'positive' : 'negative')],
        within ? answeredFor(op) : negative,
      );
    if (keywords.includes('pattern')) {
      // Off the pattern, from a valid value: the example, or (a path's) the real resource's id.
      const offFrom = async () => {
        const request = await op.prepare();
        const valid = parameter.in === 'path' ? decodeURIComponent(request.path.split('/').at(-1) ?? '') : (example ?? 'a');
        const off = offPattern(schema, valid);
        if (off === undefined) throw new Error(`no value off the pattern of ${parameter.name}`);
        return placed(request, off);
      };
      emit.add(`${where} pattern: a value off the pattern`, offFrom, [keyword(op.operation, parameter, 'pattern', 'negative')], negative);
      if (parameter.in === 'path')
        emit.add(`${where}: the real resource's id`, op.prepare, [keyword(op.operation, parameter, 'pattern', 'positive')], answeredFor(op));
    }
  }
}

/** Accept: the values that admit JSON answer as without the header; the others are the open point; an error is the error body whatever Accept says. */
function acceptCases(op: OperationBase, emit: Emit, requiresKey: boolean): void {
  for (const value of [...ACCEPTS_JSON, ...ACCEPTS_NO_JSON]) {
    const admitsJson = (ACCEPTS_JSON as readonly string[]).includes(value);
    emit.add(
      `Accept: ${value}`,
      async () => withHeader(await op.prepare(), 'accept', value),
      [dimension(op.operation, 'accept', value)],
      admitsJson ? answeredFor(op) : { kind: 'observed', openPoint: ACCEPT_POINT },
    );
    // Without a key the seed states the answer (5.5: 401 in the error body of section 7), whatever Accept says.
    if (requiresKey)
      emit.add(
        `Accept: ${value}, without a key`,
        async () => withHeader(await op.prepare(), 'accept', value),
        [dimension(op.operation, 'accept (error)', value)],
        { kind: 'refused', status: 401, code: 'UNAUTHORIZED' },
        true,
      );
  }
}

/** A JSON body of exactly `bytes` bytes: the passing body followed by whitespace, which JSON allows after a value. */
function paddedJson(request: CaseRequest, bytes: number): CaseRequest {
  const text = request.raw !== undefined ? String(request.raw) : JSON.stringify(request.json);
  const length = Buffer.byteLength(text);
  if (length > bytes) throw new Error(`a passing body of ${length} bytes is over ${bytes}`);
  const { json: _json, ...rest } = request;
  return { ...rest, raw: `${text}${' '.repeat(bytes - length)}`, contentType: request.contentType ?? 'application/json' };
}

/** A JSON body's Content-Type with parameters and in other letter cases, and its framing at the 256 KiB limit and one byte past it. */
function jsonBodyCases(op: OperationBase, emit: Emit): void {
  const jsonType = openPoint('json-content-type').id;
  for (const value of ['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/JSON', 'APPLICATION/JSON']) {
    emit.add(
      `Content-Type: ${value}`,
      async () => {
        const request = await op.prepare();
        const { json: _json, ...rest } = request;
        return { ...rest, raw: JSON.stringify(request.json), contentType: value };
      },
      [dimension(op.operation, 'content-type', value)],
      { kind: 'observed', openPoint: jsonType },
    );
  }
  for (const chunked of [false, true]) {
    const framing = chunked ? 'chunked' : 'Content-Length';
    emit.add(
      `${framing}, ${requestBodyLimitBytes} bytes (the limit)`,
      async () => ({ ...paddedJson(await op.prepare(), requestBodyLimitBytes), chunked }),
      [dimension(op.operation, 'framing', `${framing}, ${requestBodyLimitBytes} bytes`)],
      answeredFor(op),
    );
    emit.add(
      `${framing}, ${requestBodyLimitBytes + 1} bytes (one past the limit)`,
      async () => ({ ...paddedJson(await op.prepare(), requestBodyLimitBytes + 1), chunked }),
      [dimension(op.operation, 'framing', `${framing}, ${requestBodyLimitBytes + 1} bytes`)],
      REFUSED,
    );
  }
}

/** Uploads: every accepted type empty, one byte, at its family's limit and one past it; each family's limits in both framings. */
function uploadCases(op: OperationBase, emit: Emit, untestable: UntestableEntry[]): void {
  // Every case sends a raw file, which its schema (a binary string: any bytes) admits: a positive case of each of its keywords.
  const rawSchema = requestBodySchemaName(op.operation, operation(op.operation).requestMediaTypes[0]);
  const rawFile: CoverageRecord[] = rawSchema
    ? constraintKeywords(resolvedSchema({ $ref: `#/components/schemas/${rawSchema}` }).schema).map((name) => ({
        kind: 'keyword',
        operation: op.operation,
        location: 'body',
        pointer: '/',
        keyword: name,
        polarity: 'positive',
      }))
    : [];
  const add: Emit['add'] = (name, request, records, expectation, anonymous) => emit.add(name, request, [...records, ...rawFile], expectation, anonymous);
  const bodyLimit = openPoint('upload-body-limit').id;
  const upload = async (type: string, bytes: Uint8Array, chunked = false): Promise<CaseRequest> => ({
    ...(await op.prepare()),
    raw: bytes,
    contentType: type,
    ...(chunked ? { chunked } : {}),
  });
  const tooLarge: Expectation = { kind: 'refused', status: 413, code: 'ASSET_TOO_LARGE' };
  const typeCase = openPoint('upload-media-type-case').id;
  const typeParameters = openPoint('upload-media-type-parameters').id;
  const framed = new Set<string>();
  for (const type of acceptedMimeTypes as readonly AssetMimeType[]) {
    const family = familyOfMimeType(type);
    const { decimal, binary } = sizeLimitReadings(family);
    const sample = acceptedSamples[type];
    add(`${type}, empty`, () => upload(type, new Uint8Array(0)), [dimension(op.operation, 'upload-size', `${type}, empty`)], REFUSED);
    // One byte is a whole text file; no file of a binary type is one byte long, so its content does not match the type (4.5).
    if (type === 'text/plain' || type === 'text/markdown')
      add(`${type}, one byte`, () => upload(type, new Uint8Array([0x61])), [dimension(op.operation, 'upload-size', `${type}, one byte`)], answeredFor(op));
    else if (!type.startsWith('text/'))
      add(`${type}, one byte`, () => upload(type, sample.slice(0, 1)), [dimension(op.operation, 'upload-size', `${type}, one byte`)], REFUSED);
    else untestable.push({ operation: op.operation, what: `upload-size ${type}, one byte`, reason: 'no one-byte file is an HTML document' });
    // Past the limit under either reading of "MB" (open point size-units): the binary limit and one byte (a WAV rounds up to an even size).
    const atLimit = reachableSize(type, decimal);
    const over = reachableSize(type, binary + 1);
    if (atLimit !== decimal || over === undefined) {
      untestable.push({
        operation: op.operation,
        what: `upload-size ${type}, at and past the ${family} limit`,
        reason: `the kit grows files to an exact size for ${SIZABLE_TYPES.join(', ')} only`,
      });
      continue;
    }
    for (const chunked of framed.has(family) ? [false] : [false, true]) {
      const framing = chunked ? 'chunked' : 'Content-Length';
      add(
        `${type}, ${decimal} bytes (the ${family} limit), ${framing}`,
        () => upload(type, sampleOfSize(type, decimal)!, chunked),
        [dimension(op.operation, chunked ? 'framing' : 'upload-size', `${type}, ${decimal} bytes${chunked ? ', chunked' : ''}`)],
        { kind: 'observed', openPoint: bodyLimit },
      );
      add(
        `${type}, ${over} bytes (past the ${family} limit), ${framing}`,
        () => upload(type, sampleOfSize(type, over)!, chunked),
        [dimension(op.operation, chunked ? 'framing' : 'upload-size', `${type}, ${over} bytes${chunked ? ', chunked' : ''}`)],
        tooLarge,
      );
    }
    framed.add(family);
    add(`Content-Type: ${type.toUpperCase()}`, () => upload(type.toUpperCase(), sample), [dimension(op.operation, 'content-type', 'upper case')], {
      kind: 'observed',
      openPoint: typeCase,
    });
    add(`Content-Type: ${type}; name=file`, () => upload(`${type}; name=file`, sample), [dimension(op.operation, 'content-type', 'with a parameter')], {
      kind: 'observed',
      openPoint: typeParameters,
    });
  }
}

/** Every parameter and HTTP dimension case of one operation, with the passing request they change. */
export function requestCases(op: OperationBase): { bases: BaseRequest[]; cases: CoverageCase[]; untestable: UntestableEntry[] } {
  const cases: CoverageCase[] = [];
  const untestable: UntestableEntry[] = [];
  const spec = operation(op.operation);
  const emit = emitter(op, cases, 'passing request');
  parameterCases(op, emit);
  acceptCases(op, emit, spec.requiresKey);
  if (spec.requestMediaTypes.includes('application/json')) jsonBodyCases(op, emit);
  else if (spec.requestMediaTypes.length > 0) uploadCases(op, emit, untestable);
  return { bases: [emit.base], cases, untestable };
}
