// Sends one request to the mock and reads the whole answer.
import { request } from 'undici';
import type { MockRequest } from './spec-requests.ts';

export interface MockResponse {
  status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  /** The media type of Content-Type without parameters, lower-case; "" when absent. */
  mediaType: string;
}

export async function send(baseUrl: string, mockRequest: MockRequest): Promise<MockResponse> {
  const response = await request(`${baseUrl}${mockRequest.path}`, {
    method: mockRequest.method as 'GET',
    headers: mockRequest.headers,
    ...(mockRequest.body === undefined ? {} : { body: mockRequest.body }),
  });
  const text = await response.body.text();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const mediaType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return { status: response.statusCode, headers, text, mediaType };
}

/** The body parsed as JSON, with the raw text in the error when it is not JSON. */
export function jsonBody(response: MockResponse): unknown {
  try {
    return JSON.parse(response.text);
  } catch {
    throw new Error(`Expected a JSON body from status ${response.status}, got: ${response.text.slice(0, 300)}`);
  }
}
