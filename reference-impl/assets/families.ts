// The accepted upload types, their families and each family's limits: types and page / duration
// limits as the spec states them (spec/media.ts, from AssetMimeType's x-families), byte limits from
// the reference choice of open point size-units (decimal megabytes).
import { acceptedMimeTypes, referenceChoice, uploadFamilies, type AssetMimeType, type MediaFamily } from '../../spec/index.ts';

export type AcceptedMimeType = AssetMimeType;
export type AssetFamily = MediaFamily;

export interface FamilyLimits {
  maxBytes: number;
  /** Only documents with pages (PDF, DOCX) are counted; text files have no pages. */
  maxPages?: number;
  maxSeconds?: number;
}

export function familyLimits(family: AssetFamily): FamilyLimits {
  const entry = uploadFamilies[family];
  const limits: FamilyLimits = { maxBytes: referenceChoice<number>('size-units', `${family}_max_bytes`) };
  if (entry.maxPages !== undefined) limits.maxPages = entry.maxPages;
  if (entry.maxSeconds !== undefined) limits.maxSeconds = entry.maxSeconds;
  return limits;
}

export const textMimeTypes: ReadonlySet<AcceptedMimeType> = new Set(acceptedMimeTypes.filter((type) => type.startsWith('text/')));
