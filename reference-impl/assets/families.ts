// The accepted upload types, their families and each family's limits, read from the spec:
// types and page / duration limits from AssetMimeType's x-families, byte limits from the
// reference choice of open point size-units (decimal megabytes).
import { openapiDocument, referenceChoice, type JsonObject, type Schemas } from '../../spec/index.ts';

export type AcceptedMimeType = Schemas['AssetMimeType'];
export type AssetFamily = 'image' | 'document' | 'audio';

export interface FamilyLimits {
  maxBytes: number;
  /** Only documents with pages (PDF, DOCX) are counted; text files have no pages. */
  maxPages?: number;
  maxSeconds?: number;
}

interface FamilyEntry {
  types: AcceptedMimeType[];
  max_pages?: number;
  max_seconds?: number;
}

const schemas = (openapiDocument.components as JsonObject).schemas as JsonObject;
const mimeTypeSchema = schemas.AssetMimeType as JsonObject;
const familyTable = mimeTypeSchema['x-families'] as unknown as Record<AssetFamily, FamilyEntry>;

export const assetFamilies: readonly AssetFamily[] = ['image', 'document', 'audio'];

export const acceptedMimeTypes: readonly AcceptedMimeType[] = mimeTypeSchema.enum as AcceptedMimeType[];

const familyByType = new Map<string, AssetFamily>(
  assetFamilies.flatMap((family) => familyTable[family].types.map((type) => [type, family] as const)),
);

for (const type of acceptedMimeTypes) {
  if (!familyByType.has(type)) throw new Error(`AssetMimeType ${type} belongs to no family in x-families`);
}

export function isAcceptedMimeType(type: string): type is AcceptedMimeType {
  return familyByType.has(type);
}

export function familyOf(type: AcceptedMimeType): AssetFamily {
  const family = familyByType.get(type);
  if (!family) throw new Error(`${type} is not an accepted type`);
  return family;
}

export function familyLimits(family: AssetFamily): FamilyLimits {
  const entry = familyTable[family];
  const limits: FamilyLimits = { maxBytes: referenceChoice<number>('size-units', `${family}_max_bytes`) };
  if (entry.max_pages !== undefined) limits.maxPages = entry.max_pages;
  if (entry.max_seconds !== undefined) limits.maxSeconds = entry.max_seconds;
  return limits;
}

export const textMimeTypes: ReadonlySet<AcceptedMimeType> = new Set(
  acceptedMimeTypes.filter((type) => type.startsWith('text/')),
);
