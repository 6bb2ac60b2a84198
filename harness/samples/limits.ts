// The upload families and their limits as the spec states them (spec/media.ts), for building
// samples that sit just inside or just outside a limit. "10 MB" and "25 MB" are ambiguous (open
// point size-units): the reference server reads decimal megabytes, another server may read
// mebibytes, so both readings are offered and a suite that judges any server picks the one that
// suits its question.
import { acceptedMimeTypes, familyOfMimeType, referenceChoice, uploadFamilies, type AssetMimeType, type MediaFamily } from '../../spec/index.ts';

export type SampleMimeType = AssetMimeType;
export type SampleFamily = MediaFamily;

export { acceptedMimeTypes, familyOfMimeType as familyOfType };

export interface SizeLimitReadings {
  /** The reference server's reading (open point size-units). */
  reference: number;
  decimal: number;
  binary: number;
}

export function sizeLimitReadings(family: SampleFamily): SizeLimitReadings {
  const { maxFile } = uploadFamilies[family];
  const match = /^(\d+)\s*MB$/.exec(maxFile);
  if (!match) throw new Error(`Unexpected max_file for ${family}: ${maxFile}`);
  const megabytes = Number(match[1]);
  return {
    reference: referenceChoice<number>('size-units', `${family}_max_bytes`),
    decimal: megabytes * 1_000_000,
    binary: megabytes * 1024 * 1024,
  };
}

export const maxDocumentPages: number = uploadFamilies.document.maxPages ?? Number.NaN;
export const maxAudioSeconds: number = uploadFamilies.audio.maxSeconds ?? Number.NaN;
