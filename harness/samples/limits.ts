// The upload families and their limits as the spec states them, for building samples that sit just
// inside or just outside a limit. "10 MB" and "25 MB" are ambiguous (open point size-units): the
// reference server reads decimal megabytes, another server may read mebibytes, so both readings
// are offered and a suite that judges any server picks the one that suits its question.
import { openapiDocument, referenceChoice, type JsonObject, type Schemas } from '../../spec/index.ts';

export type SampleMimeType = Schemas['AssetMimeType'];
export type SampleFamily = 'image' | 'document' | 'audio';

interface FamilyEntry {
  max_file: string;
  max_pages?: number;
  max_seconds?: number;
  types: SampleMimeType[];
}

const schemas = (openapiDocument.components as JsonObject).schemas as JsonObject;
const mimeTypeSchema = schemas.AssetMimeType as JsonObject;
const families = mimeTypeSchema['x-families'] as unknown as Record<SampleFamily, FamilyEntry>;

export const sampleFamilies: readonly SampleFamily[] = ['image', 'document', 'audio'];
export const acceptedMimeTypes: readonly SampleMimeType[] = mimeTypeSchema.enum as SampleMimeType[];

export function familyOfType(type: SampleMimeType): SampleFamily {
  const family = sampleFamilies.find((name) => families[name].types.includes(type));
  if (!family) throw new Error(`${type} belongs to no family in the spec`);
  return family;
}

export function typesOfFamily(family: SampleFamily): readonly SampleMimeType[] {
  return families[family].types;
}

export interface SizeLimitReadings {
  /** The reference server's reading (open point size-units). */
  reference: number;
  decimal: number;
  binary: number;
}

export function sizeLimitReadings(family: SampleFamily): SizeLimitReadings {
  const match = /^(\d+)\s*MB$/.exec(families[family].max_file);
  if (!match) throw new Error(`Unexpected max_file for ${family}: ${families[family].max_file}`);
  const megabytes = Number(match[1]);
  return {
    reference: referenceChoice<number>('size-units', `${family}_max_bytes`),
    decimal: megabytes * 1_000_000,
    binary: megabytes * 1024 * 1024,
  };
}

export const maxDocumentPages: number = families.document.max_pages ?? Number.NaN;
export const maxAudioSeconds: number = families.audio.max_seconds ?? Number.NaN;
