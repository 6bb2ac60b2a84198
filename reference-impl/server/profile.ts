// The reference server's two profiles: the reference choices of the spec's open points, and an
// alternate that makes, on every open point where that is data, the other choice the seed
// equally allows (x-alternate-choice). The suites must give both 0 MUST failures: a verdict
// that depends on which one a server chose is a false verdict. Every value comes from the spec.
import { choiceOf, openPoint, type ChoiceName, type Json, type JsonObject } from '../../spec/index.ts';

export type ProfileName = ChoiceName;
export const PROFILE_NAMES: readonly ProfileName[] = ['reference', 'alternate'];

export interface ServerProfile {
  name: ProfileName;
  /** decide-success-status */
  decideStatus: number;
  /** feedback-shape */
  feedbackStatus: number;
  /** models-shape */
  modelsStatus: number;
  modelsShape: 'list-object' | 'models-array';
  /** asset-read-delete-status */
  assetReadStatus: number;
  assetDeleteStatus: number;
  /** malformed-asset-id-in-path: the code (its status is the code's) for a malformed id in the path. */
  malformedAssetIdCode: string;
  /** asset-after-delete: the code for using, reading or deleting a deleted asset. */
  assetAfterDeleteCode: string;
  /** asset-read-after-expiry: the code for reading or deleting an expired asset (referencing one is 410 ASSET_EXPIRED, seed 3). */
  expiredReadCode: string;
  /** part-asset-family: the code for a part that references an asset of another family. */
  partFamilyMismatchCode: string;
  /** upload-media-type-parameters: accept an upload Content-Type with parameters, or refuse it. */
  uploadTypeParameters: 'accept' | 'refuse';
  /** upload-media-type-case: compare an upload's type and subtype case-insensitively, or only as the list writes them. */
  uploadTypeCase: 'insensitive' | 'exact';
  /** size-units: each family's file size limit in bytes. */
  fileSizeLimits: Record<'image' | 'document' | 'audio', number>;
  /** sha256-encoding: the letter case of the asset's hexadecimal sha256. */
  sha256LetterCase: 'lower' | 'upper';
  /** unknown-route */
  unknownRouteCode: string;
  /** json-content-type: media types besides application/json whose bodies are read as JSON. */
  jsonAlsoAccepts: string[];
  /** invalid-caller-request-id: replace an invalid caller id with a generated one, or refuse the request. */
  invalidCallerRequestId: 'replace' | 'refuse';
  /** error-request-id-null: the errors whose body carries request_id null (the header is always sent). */
  nullRequestIdOn: string[];
  /** name-only-statuses: name-only codes answered with another code instead. */
  replacedCodes: Record<string, string>;
  /** upload-body-limit: whether the 256 KiB request body limit also bounds raw uploads. */
  uploadsWithinBodyLimit: boolean;
  /** rate-limits: whether keys are rate limited at all (the bucket's size is server configuration). */
  rateLimited: boolean;
  /** service-endpoint-bodies: the body of GET /health. */
  healthBody: JsonObject;
  /** character-counting: what the 8,000-character limits count. */
  characterUnit: 'code-points' | 'utf-16-code-units';
  /** noul-instructions-required */
  noulInstructionsRequired: boolean;
  /** asset-ttl: the upload header in which a caller may shorten an asset's lifetime, if any. */
  assetTtlHeader: string | null;
  /** model-selection: whether a decide request may name a model (the current one or an alias). */
  modelField: boolean;
  /** id-format-and-count: the pattern question and option ids must match, if any. */
  idPattern: string | null;
  /** abstention-threshold: a choice answer abstains below this top-1 probability (null: the margin rule). */
  minTopProbability: number | null;
  /** abstention-status-values: abstention_status for text-only contexts (media ones are advisory, seed 2.4). */
  textOnlyAbstentionStatus: string;
  /** answer-shapes: the spec's full noul, multi and score answers, or the compact ones. */
  answerShapes: 'full' | 'compact';
}

/** Open point id -> the choice made on it, over the profile's own. */
export type ChoiceOverrides = Readonly<Record<string, ChoiceName>>;

/**
 * The profile's choice on one open point: an override first; then the profile's own, except that
 * the alternate profile keeps the reference choice where the alternate is served only alone.
 */
export function choiceMade(name: ProfileName, id: string, overrides: ChoiceOverrides = {}): ChoiceName {
  const override = overrides[id];
  if (override !== undefined) return override;
  return name === 'alternate' && openPoint(id).alternateChoice.served_alone ? 'reference' : name;
}

export function serverProfile(name: ProfileName, overrides: ChoiceOverrides = {}): ServerProfile {
  const pick = <T extends Json>(id: string, field: string) => choiceOf<T>(choiceMade(name, id, overrides), id, field);
  return {
    name,
    decideStatus: pick<number>('decide-success-status', 'status'),
    feedbackStatus: pick<number>('feedback-shape', 'status'),
    modelsStatus: pick<number>('models-shape', 'status'),
    modelsShape: pick<'list-object' | 'models-array'>('models-shape', 'shape'),
    assetReadStatus: pick<number>('asset-read-delete-status', 'get_status'),
    assetDeleteStatus: pick<number>('asset-read-delete-status', 'delete_status'),
    malformedAssetIdCode: pick<string>('malformed-asset-id-in-path', 'code'),
    assetAfterDeleteCode: pick<string>('asset-after-delete', 'code'),
    expiredReadCode: pick<string>('asset-read-after-expiry', 'code'),
    sha256LetterCase: pick<'lower' | 'upper'>('sha256-encoding', 'letter_case'),
    partFamilyMismatchCode: pick<string>('part-asset-family', 'code'),
    fileSizeLimits: {
      image: pick<number>('size-units', 'image_max_bytes'),
      document: pick<number>('size-units', 'document_max_bytes'),
      audio: pick<number>('size-units', 'audio_max_bytes'),
    },
    uploadTypeParameters: pick<'accept' | 'refuse'>('upload-media-type-parameters', 'parameters'),
    uploadTypeCase: pick<'insensitive' | 'exact'>('upload-media-type-case', 'letter_case'),
    unknownRouteCode: pick<string>('unknown-route', 'code'),
    jsonAlsoAccepts: pick<string[]>('json-content-type', 'accepted_types'),
    invalidCallerRequestId: pick<'replace' | 'refuse'>('invalid-caller-request-id', 'action'),
    nullRequestIdOn: pick<string[]>('error-request-id-null', 'null_on'),
    replacedCodes: pick<Record<string, string>>('name-only-statuses', 'replaced_codes'),
    uploadsWithinBodyLimit: pick<boolean>('upload-body-limit', 'applies_to_uploads'),
    rateLimited: pick<boolean>('rate-limits', 'rate_limited'),
    healthBody: pick<JsonObject>('service-endpoint-bodies', 'health_body'),
    characterUnit: pick<'code-points' | 'utf-16-code-units'>('character-counting', 'unit'),
    noulInstructionsRequired: pick<boolean>('noul-instructions-required', 'required'),
    assetTtlHeader: pick<string | null>('asset-ttl', 'ttl_header'),
    modelField: pick<boolean>('model-selection', 'model_field'),
    idPattern: pick<string | null>('id-format-and-count', 'id_pattern'),
    minTopProbability: pick<number | null>('abstention-threshold', 'min_top_probability'),
    textOnlyAbstentionStatus: pick<string>('abstention-status-values', 'text_only_status'),
    answerShapes: pick<'full' | 'compact'>('answer-shapes', 'shapes'),
  };
}

/** Reads `--choice` values of the form <open-point>=<reference|alternate>. */
export function choiceOverrides(texts: readonly string[]): ChoiceOverrides {
  return Object.fromEntries(
    texts.map((text) => {
      const [id = '', choice] = text.split('=', 2);
      if (choice === undefined || !(PROFILE_NAMES as readonly string[]).includes(choice))
        throw new Error(`--choice must be <open-point>=${PROFILE_NAMES.join('|')}, got "${text}"`);
      openPoint(id); // throws on an unknown open point
      return [id, choice as ChoiceName];
    }),
  );
}

/** Reads a profile name from a flag or the environment; undefined is the reference profile. */
export function profileName(text: string | undefined): ProfileName {
  if (text === undefined || text === '') return 'reference';
  if (!(PROFILE_NAMES as readonly string[]).includes(text)) throw new Error(`--profile must be ${PROFILE_NAMES.join(' or ')}, got "${text}"`);
  return text as ProfileName;
}
