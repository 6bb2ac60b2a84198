// The error codes of seed section 7, with the status the seed states and the reference status.
import { openapiDocument, type JsonObject } from './document.ts';
import { referenceChoice } from './open-points.ts';

export interface ErrorCodeInfo {
  code: string;
  /** The status the seed states for the code; null for codes the seed names only. */
  statedStatus: number | null;
  /** The status the reference server uses: the stated one, or the open point's choice. */
  referenceStatus: number;
  condition: string;
}

const errorCodeSchema = (openapiDocument.components as JsonObject).schemas as JsonObject;
const codeTable = (errorCodeSchema.ErrorCode as JsonObject)['x-codes'] as Record<string, { status: number | null; condition: string }>;
const nameOnlyStatuses = referenceChoice<Record<string, number>>('name-only-statuses', 'statuses');

export const errorCodes: readonly ErrorCodeInfo[] = ((errorCodeSchema.ErrorCode as JsonObject).enum as string[]).map((code) => {
  const entry = codeTable[code];
  if (!entry) throw new Error(`ErrorCode ${code} has no x-codes entry`);
  const referenceStatus = entry.status ?? nameOnlyStatuses[code];
  if (referenceStatus === undefined) throw new Error(`Name-only code ${code} has no reference status`);
  return { code, statedStatus: entry.status, referenceStatus, condition: entry.condition };
});

export function errorCode(code: string): ErrorCodeInfo {
  const found = errorCodes.find((entry) => entry.code === code);
  if (!found) throw new Error(`${code} is not an error code of the spec`);
  return found;
}
