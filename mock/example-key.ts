// An API key of the documented form, for requests to the mock (which accepts any bearer token).
import { apiKeyPrefix } from '../spec/index.ts';

/** `Bearer <prefix>...` as seed section 5 writes it; the prefix is the bearer scheme's x-key-prefix. */
export function exampleAuthorization(): string {
  return `Bearer ${apiKeyPrefix}mockexample`;
}
