// Assets (seed 2.5, 3, 4.5 to 4.7, 8): uploading each accepted type and what the Asset says
// about the file; refused uploads; reading and deleting; unknown, deleted and expired ids; and
// decisions that reference the caller's own assets.
import { referenceChoice, requestBodyLimitBytes } from '../spec/index.ts';
import {
  assetDifferences,
  assetLifetimeMs,
  decideReferencing,
  DEFAULT_ASSET_LIFETIME_MS,
  mp4Sample,
  observeNameOnly,
  partTypeFor,
  sha256EncodingOf,
  sha256Hex,
  sleep,
  statusWithCode,
  unknownAssetId,
  uploadSample,
} from '../harness/assets-support.ts';
import { area, type Check, type CheckRequirements } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { describeReply, expectError, expectErrorBody, expectNotSuccess, expectStatus, expectSuccess, expectValidBody, isSuccess } from '../harness/expect.ts';
import { decideBody, mediaPart } from '../harness/requests.ts';
import type { Reply } from '../harness/http.ts';
import {
  acceptedMimeTypes,
  maxAudioSeconds,
  maxDocumentPages,
  mismatchedSample,
  oversizeSample,
  pdfWithPages,
  plainTextSample,
  sameFamilyMismatches,
  sampleFor,
  sizeLimitReadings,
  textTwinsDifferingAtTheEnd,
  wavSeconds,
  type SampleFamily,
  type SampleMimeType,
} from '../harness/samples/media.ts';

const ASSETS: CheckRequirements = { capabilities: ['assets'] };
/** Referencing an asset from a decision needs list contexts with media parts as well. */
const ASSETS_IN_DECISIONS: CheckRequirements = { capabilities: ['assets', 'multimodal'] };

/** Expiry is waited for, so only a short lifetime can be checked within a run. */
const MAX_EXPIRY_WAIT_MS = 60_000;
/** Added to the lifetime before the expired asset is used: clocks tick in whole milliseconds, servers may round. */
const EXPIRY_MARGIN_MS = 1_000;
/** Servers may stamp created_at and expires_at a moment apart. */
const LIFETIME_TOLERANCE_MS = 1_000;
/** Seed 8: "Request body 256 KiB"; whether it applies to uploads is open (upload-body-limit). */
const JSON_BODY_LIMIT_BYTES = requestBodyLimitBytes;
/**
 * Two text files this long, identical but for their last line: past 1 MB, 1 MiB and 2 MiB, the
 * first parts a hashing shortcut might stop at, and well within the document limit in any unit.
 */
const TWIN_FILE_BYTES = 2_100_000;
const NO_EXPIRY_PROJECT = 'not verifiable in this run: no short-lifetime project (--expiry-api-key, --expiry-ttl-seconds)';

/** ASSET-UPLOAD-IMAGE-PNG, ...; the one vendor type is named by its file extension. */
const TYPE_ID_NAMES: Partial<Record<SampleMimeType, string>> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'APPLICATION-DOCX',
};
export function uploadCheckId(mimeType: SampleMimeType): string {
  return `ASSET-UPLOAD-${TYPE_ID_NAMES[mimeType] ?? mimeType.toUpperCase().replace(/[^A-Z0-9]+/g, '-')}`;
}

const withArticle = (word: string, an: string, a: string) => `${/^[aeiou]/.test(word) ? an : a} ${word}`;

/** The type generic HTTP clients send for a file whose type they do not know: not in the seed's list (4.5). */
const GENERIC_BINARY_TYPE = 'application/octet-stream';
/** A file of each family: the generic type is refused whatever the content would sniff as. */
const ONE_OF_EACH_FAMILY = ['image/png', 'application/pdf', 'audio/wav'] as const;

/** A declared Content-Type that names a listed type as HTTP reads media types, though not as the seed writes it. */
interface ListedTypeReading {
  declared: string;
  listed: SampleMimeType;
  openPoint: 'upload-media-type-case' | 'upload-media-type-parameters';
}

/**
 * RFC 9110 (8.3.1) compares type and subtype case-insensitively and lets parameters follow them;
 * the seed lists bare lower-case types. Whether a server reads these the HTTP way is open: each
 * is observed, and only what the seed bounds either answer by is judged.
 */
const LISTED_TYPE_READINGS: readonly ListedTypeReading[] = [
  { declared: 'IMAGE/PNG', listed: 'image/png', openPoint: 'upload-media-type-case' },
  { declared: 'image/png; charset=binary', listed: 'image/png', openPoint: 'upload-media-type-parameters' },
  { declared: 'text/plain; charset=utf-8', listed: 'text/plain', openPoint: 'upload-media-type-parameters' },
];

/** "IMAGE/PNG; x=1" -> "image/png": the listed type a declared one names. */
const namedType = (declared: string) => declared.split(';', 1)[0]!.trim().toLowerCase();

/**
 * Uploads the file under its own listed type, which must be stored: a refusal of the same bytes
 * under another declared type can then only come from that type.
 */
async function expectStoredUnderOwnType(t: CheckContext, bytes: Uint8Array, mimeType: SampleMimeType): Promise<void> {
  expectStatus(await t.a.upload(bytes, mimeType), 201, `for the ${mimeType} file declared as what it is`);
}

/**
 * What the seed still states of an upload whose declared type is read the HTTP way: stored as
 * the listed type it names (201, an Asset of that type with the file's size and SHA-256), or
 * refused with a 4xx in the error body with the request id.
 */
function judgeListedTypeReading(t: CheckContext, reading: ListedTypeReading, bytes: Uint8Array, reply: Reply): void {
  const what = `an upload of ${withArticle(reading.listed, 'an', 'a')} file declared ${JSON.stringify(reading.declared)} (open point ${reading.openPoint})`;
  if (!isSuccess(reply)) {
    if (reply.status < 400 || reply.status >= 500) t.fail(`a 201 or a 4xx for ${what}, never a 5xx or a redirect`, describeReply(reply));
    expectErrorBody(reply, undefined, 'uploadAsset');
    return;
  }
  expectStatus(reply, 201, `for ${what}, accepted (seed 4.5: success is 201)`);
  const mimeType = reply.json?.mime_type;
  if (typeof mimeType !== 'string' || namedType(mimeType) !== reading.listed)
    t.fail(`mime_type naming ${reading.listed}, the type of the file, for ${what}`, `mime_type ${JSON.stringify(mimeType)}`);
  // The Asset schema lists the types as the seed writes them; how an accepted reading is spelled back is the server's.
  expectValidBody({ ...reply, json: { ...reply.json, mime_type: reading.listed } }, 'uploadAsset');
  if (reply.json.size_bytes !== bytes.byteLength)
    t.fail(`size_bytes ${bytes.byteLength}, the size of the file, for ${what}`, `size_bytes ${JSON.stringify(reply.json.size_bytes)}`);
  if (!sha256EncodingOf(reply.json.sha256, bytes))
    t.fail(`the SHA-256 of the file (hex ${sha256Hex(bytes)}, or its base64) for ${what}`, `sha256 ${JSON.stringify(reply.json.sha256)}`);
}

/** What the readings of one open point got, beside its reference choice: stored as the listed type, or refused. */
async function observeListedTypeReadings(t: CheckContext, openPoint: ListedTypeReading['openPoint'], referenceAccepts: boolean): Promise<void> {
  const seen: string[] = [];
  let asReference = true;
  for (const reading of LISTED_TYPE_READINGS.filter((entry) => entry.openPoint === openPoint)) {
    const reply = await t.a.upload(sampleFor(reading.listed), reading.declared);
    const mimeType = reply.json?.mime_type;
    seen.push(`${reading.declared}: ${statusWithCode(reply)}${typeof mimeType === 'string' ? `, mime_type ${mimeType}` : ''}`);
    asReference &&= referenceAccepts ? reply.status === 201 && mimeType === reading.listed : reply.status >= 400 && reply.status < 500;
  }
  t.observe({ summary: seen.join('; '), matchesReference: asReference });
}

const uploadChecks: Array<Omit<Check, 'area'>> = acceptedMimeTypes.map((mimeType) => ({
  id: uploadCheckId(mimeType),
  level: 'MUST',
  seedSections: ['2.5', '4.5', '8'],
  title: `A valid ${mimeType} file is stored: 201 with an Asset giving that mime_type and the size sent`,
  requires: ASSETS,
  async run(t: CheckContext) {
    const bytes = sampleFor(mimeType);
    const reply = await t.a.upload(bytes, mimeType);
    expectStatus(reply, 201, `for a valid ${mimeType} file of ${bytes.byteLength} bytes`);
    expectValidBody(reply, 'uploadAsset');
    if (reply.json.mime_type !== mimeType) t.fail(`mime_type ${mimeType}, the type sent`, `mime_type ${JSON.stringify(reply.json.mime_type)}`);
    if (reply.json.size_bytes !== bytes.byteLength)
      t.fail(`size_bytes ${bytes.byteLength}, the size of the file sent`, `size_bytes ${JSON.stringify(reply.json.size_bytes)}`);
  },
}));

const oversizeChecks: Array<Omit<Check, 'area'>> = (['image', 'document', 'audio'] as const).map((family: SampleFamily) => {
  const readings = sizeLimitReadings(family);
  // Over both readings of "MB" (open point size-units), so any reading makes the file too large.
  const limit = Math.max(readings.decimal, readings.binary, readings.reference);
  return {
    id: `ASSET-TOO-LARGE-${family.toUpperCase()}`,
    level: 'MUST',
    seedSections: ['4.5', '7', '8'],
    title: `${withArticle(family, 'An', 'A')} file over its size limit (over ${limit} bytes, both readings of MB) answers 413 ASSET_TOO_LARGE`,
    requires: ASSETS,
    async run(t: CheckContext) {
      const sample = oversizeSample(family, limit);
      expectError(await t.a.upload(sample.bytes, sample.mimeType), 413, 'ASSET_TOO_LARGE', 'uploadAsset');
    },
  };
});

/**
 * "10 MB" and "25 MB" read as decimal megabytes or as mebibytes (open point size-units): a file of
 * exactly the smaller reading is within the limit under both, so it must be stored; a file one byte
 * over the smaller reading tells which reading a server uses, and is only observed.
 */
const sizeUnitChecks: Array<Omit<Check, 'area'>> = (['image', 'document', 'audio'] as const).map((family: SampleFamily) => {
  const readings = sizeLimitReadings(family);
  const withinEveryReading = Math.min(readings.decimal, readings.binary);
  return {
    id: `ASSET-SIZE-AT-LIMIT-${family.toUpperCase()}`,
    level: 'MUST',
    seedSections: ['4.5', '8'],
    title: `${withArticle(family, 'An', 'A')} file of exactly ${withinEveryReading.toLocaleString('en')} bytes (the limit in decimal MB, within it in MiB too) is stored`,
    requires: ASSETS,
    async run(t: CheckContext) {
      // One byte under the smaller reading, plus the one byte oversizeSample adds: exactly at the limit.
      const sample = oversizeSample(family, withinEveryReading - 1);
      const reply = await t.a.upload(sample.bytes, sample.mimeType);
      if (reply.status === 413) {
        // A server may apply the 256 KiB body limit to uploads (open point upload-body-limit): then no file this large can be judged.
        const overBodyLimit = oversizeSample(family, JSON_BODY_LIMIT_BYTES);
        const small = await t.a.upload(overBodyLimit.bytes, overBodyLimit.mimeType);
        if (small.status === 413)
          t.skip(
            `not verifiable on this target: a ${overBodyLimit.bytes.byteLength}-byte ${overBodyLimit.mimeType} upload is refused too (${statusWithCode(small)}; open point upload-body-limit)`,
          );
      }
      expectStatus(reply, 201, `for a ${sample.mimeType} file of ${sample.bytes.byteLength} bytes, within ${family} limit under every reading of MB`);
      if (reply.json?.size_bytes !== sample.bytes.byteLength)
        t.fail(`size_bytes ${sample.bytes.byteLength}`, `size_bytes ${JSON.stringify(reply.json?.size_bytes)}`);
      await t.a.deleteAsset(String(reply.json.id));
    },
  };
});

const sizeUnitObservation: Omit<Check, 'area'> = {
  id: 'ASSET-SIZE-UNITS',
  level: 'OBSERVE',
  seedSections: ['8'],
  title: 'Whether "10 MB" and "25 MB" are read as decimal megabytes or mebibytes: files one byte over the decimal reading',
  requires: ASSETS,
  openPoint: 'size-units',
  async run(t: CheckContext) {
    const seen: string[] = [];
    let asReference = true;
    for (const family of ['image', 'document', 'audio'] as const) {
      const readings = sizeLimitReadings(family);
      const sample = oversizeSample(family, Math.min(readings.decimal, readings.binary));
      const reply = await t.a.upload(sample.bytes, sample.mimeType);
      const reading = reply.status === 201 ? 'mebibytes' : reply.status === 413 ? 'decimal megabytes' : 'neither';
      seen.push(`${family}, ${sample.bytes.byteLength} bytes: ${statusWithCode(reply)} (${reading})`);
      asReference &&= (reply.status === 201) === sample.bytes.byteLength <= readings.reference;
      if (reply.status === 201) await t.a.deleteAsset(String(reply.json?.id));
    }
    t.observe({ summary: seen.join('; '), matchesReference: asReference });
  },
};

const ownReferenceChecks: Array<Omit<Check, 'area'>> = (['image/png', 'application/pdf', 'audio/wav'] as const).map((mimeType) => {
  const partType = partTypeFor(mimeType);
  return {
    id: `ASSET-REFERENCE-OWN-${partType.toUpperCase()}`,
    level: 'MUST',
    seedSections: ['2.2', '3'],
    title: `A decision with ${withArticle(partType, 'an', 'a')} part referencing the caller's own ${mimeType} asset succeeds`,
    requires: ASSETS_IN_DECISIONS,
    async run(t: CheckContext) {
      const { asset } = await uploadSample(t.a, mimeType);
      expectSuccess(await decideReferencing(t.a, asset.id, partType), `for a decision referencing the caller's own ${mimeType} asset`);
    },
  };
});

/**
 * Uploads to the short-lifetime project and starts the wait for the asset to expire: the expiry
 * checks of a run share the asset and its one wait, started before the first check (`prepare`).
 */
function expiryStarted(t: CheckContext): Promise<{ assetId: string; waitMs: number; expiresAt: string; expired: Promise<void>; endsAtMs: number }> {
  if (!t.expiring) t.skip(NO_EXPIRY_PROJECT);
  const expiring = t.expiring;
  return t.shared('asset-expiry-started', async () => {
    const { asset } = await uploadSample(expiring.client, 'image/png');
    const lifetimeMs = assetLifetimeMs(asset);
    if (!Number.isFinite(lifetimeMs) || lifetimeMs < 0)
      t.fail('created_at and expires_at as date-times, expires_at after created_at', `${asset.created_at} and ${asset.expires_at}`);
    if (lifetimeMs > MAX_EXPIRY_WAIT_MS) {
      t.skip(
        `not verifiable in this run: the short-lifetime project's assets live ${Math.round(lifetimeMs / 1000)} s, over the ${MAX_EXPIRY_WAIT_MS / 1000} s this check waits`,
      );
    }
    const waitMs = lifetimeMs + EXPIRY_MARGIN_MS;
    return { assetId: asset.id, waitMs, expiresAt: asset.expires_at, expired: sleep(waitMs), endsAtMs: performance.now() + waitMs };
  });
}

/** The shared expired asset: uploaded before the first check, waited for here as long as still needed. */
async function expiredAsset(t: CheckContext): Promise<string> {
  const { assetId, waitMs, expiresAt, expired, endsAtMs } = await expiryStarted(t);
  const started = performance.now();
  // Announced once, by the first check to wait, with what is left of the wait (the checks before it covered the rest).
  if (endsAtMs > started)
    await t.shared('asset-expiry-announced', async () => t.announce(`waiting ${Math.ceil((endsAtMs - started) / 1000)} s for uploaded assets to expire`));
  await expired;
  t.note(
    `waited ${waitMs} ms from the upload for ${assetId} to pass its expires_at ${expiresAt}, ${Math.round(performance.now() - started)} ms of it in this check (one wait shared by the expiry checks of this run, started before the first check)`,
  );
  return assetId;
}

/** Starts the shared expiry wait; a failure or skip in it comes back to the check that awaits it. */
const prepareExpiry = async (t: CheckContext) => void (await expiryStarted(t).catch(() => undefined));

/** Uploads an asset, deletes it (the deletion must succeed) and returns its id. */
async function deletedAsset(t: CheckContext): Promise<string> {
  const { asset } = await uploadSample(t.a, 'image/png');
  expectSuccess(await t.a.deleteAsset(asset.id), `for DELETE /v1/assets/${asset.id} by its owner`);
  return asset.id;
}

export const assetChecks: Check[] = area('assets', [
  ...uploadChecks,
  {
    id: 'ASSET-SHA256-MATCHES',
    level: 'MUST',
    seedSections: ['2.5', '4.5'],
    title: "An Asset's sha256 is the SHA-256 of the bytes uploaded (hex of either case, or base64)",
    requires: ASSETS,
    async run(t) {
      for (const mimeType of ['image/png', 'application/pdf', 'audio/wav'] as const) {
        const { asset, bytes } = await uploadSample(t.a, mimeType);
        if (!sha256EncodingOf(asset.sha256, bytes)) {
          t.fail(
            `the SHA-256 of the ${bytes.byteLength} bytes of the ${mimeType} file (hex ${sha256Hex(bytes)}, or its base64)`,
            `sha256 ${JSON.stringify(asset.sha256)}`,
          );
        }
      }
    },
  },
  {
    id: 'ASSET-SHA256-WHOLE-FILE',
    level: 'MUST',
    seedSections: ['2.5', '4.5'],
    title: `Two ${TWIN_FILE_BYTES.toLocaleString('en')}-byte text files that differ only in their last line get each its own file's SHA-256`,
    requires: ASSETS,
    async run(t) {
      const twins = textTwinsDifferingAtTheEnd(TWIN_FILE_BYTES);
      const hashes: string[] = [];
      for (const bytes of twins) {
        const reply = await t.a.upload(bytes, 'text/plain');
        // Whether the 256 KiB body limit covers uploads is open (upload-body-limit): a refusal for size is allowed.
        if (reply.status === 413)
          t.skip(`not verifiable on this target: a ${bytes.byteLength}-byte text upload answered ${statusWithCode(reply)} (open point upload-body-limit)`);
        expectStatus(reply, 201, `for a valid text/plain file of ${bytes.byteLength} bytes`);
        if (!sha256EncodingOf(reply.json?.sha256, bytes)) {
          t.fail(
            `the SHA-256 of the whole ${bytes.byteLength}-byte file (hex ${sha256Hex(bytes)}, or its base64)`,
            `sha256 ${JSON.stringify(reply.json?.sha256)}`,
          );
        }
        hashes.push(String(reply.json.sha256));
      }
      if (hashes[0] === hashes[1]) t.fail('different sha256 values for two files that differ in their last line', `both ${hashes[0]}`);
    },
  },
  {
    id: 'ASSET-CONTENT-MISMATCH-SAME-FAMILY',
    level: 'MUST',
    seedSections: ['4.5', '7'],
    title:
      'A file declared as another type of its own family (PNG as webp or jpeg, JPEG or WebP as png, WAV as mpeg, FLAC as ogg, MP3 as wav, DOCX as pdf, PDF as docx) answers 415 UNSUPPORTED_MIME_TYPE',
    requires: ASSETS,
    async run(t) {
      for (const sample of sameFamilyMismatches()) {
        await expectStoredUnderOwnType(t, sample.bytes, sample.actualMimeType);
        const reply = await t.a.upload(sample.bytes, sample.declaredMimeType);
        expectStatus(reply, 415, `with UNSUPPORTED_MIME_TYPE for a ${sample.actualMimeType} file declared ${sample.declaredMimeType}`);
        expectError(reply, 415, 'UNSUPPORTED_MIME_TYPE', 'uploadAsset');
      }
    },
  },
  {
    id: 'ASSET-SHA256-ENCODING',
    level: 'OBSERVE',
    seedSections: ['2.5'],
    title: "How an Asset's sha256 is encoded",
    requires: ASSETS,
    openPoint: 'sha256-encoding',
    async run(t) {
      const { asset, bytes } = await uploadSample(t.a, 'image/png');
      const encoding = sha256EncodingOf(asset.sha256, bytes);
      t.observe({
        summary: encoding ? `sha256 in ${encoding}` : `sha256 ${JSON.stringify(asset.sha256)} is not the file's SHA-256`,
        matchesReference: new RegExp(referenceChoice<string>('sha256-encoding', 'pattern')).test(asset.sha256) && encoding !== undefined,
      });
    },
  },
  {
    id: 'ASSET-DEFAULT-LIFETIME',
    level: 'MUST',
    seedSections: ['2.5', '3', '8'],
    title: 'An asset of a default project expires 24 hours after upload (expires_at − created_at)',
    requires: ASSETS,
    async run(t) {
      const { asset } = await uploadSample(t.a, 'image/png');
      const lifetimeMs = assetLifetimeMs(asset);
      if (!(Math.abs(lifetimeMs - DEFAULT_ASSET_LIFETIME_MS) <= LIFETIME_TOLERANCE_MS)) {
        t.fail(
          'expires_at 24 hours after created_at',
          `created_at ${asset.created_at}, expires_at ${asset.expires_at} (${Number.isFinite(lifetimeMs) ? `${lifetimeMs / 3_600_000} h` : 'not date-times'})`,
        );
      }
    },
  },
  {
    id: 'ASSET-UNSUPPORTED-TYPE',
    level: 'MUST',
    seedSections: ['1', '4.5', '7'],
    title: 'An upload declared video/mp4, a type not accepted, answers 415 UNSUPPORTED_MIME_TYPE',
    requires: ASSETS,
    async run(t) {
      expectError(await t.a.upload(mp4Sample(), 'video/mp4'), 415, 'UNSUPPORTED_MIME_TYPE', 'uploadAsset');
    },
  },
  {
    id: 'ASSET-GENERIC-BINARY-TYPE',
    level: 'MUST',
    seedSections: ['4.5', '7'],
    title: `A PNG, a PDF and a WAV file, each stored under its own type, sent again declared ${GENERIC_BINARY_TYPE} (a type not in the list) answer 415 UNSUPPORTED_MIME_TYPE`,
    requires: ASSETS,
    async run(t) {
      for (const mimeType of ONE_OF_EACH_FAMILY) {
        const bytes = sampleFor(mimeType);
        await expectStoredUnderOwnType(t, bytes, mimeType);
        const reply = await t.a.upload(bytes, GENERIC_BINARY_TYPE);
        expectStatus(reply, 415, `with UNSUPPORTED_MIME_TYPE for ${withArticle(mimeType, 'an', 'a')} file declared ${GENERIC_BINARY_TYPE}`);
        expectError(reply, 415, 'UNSUPPORTED_MIME_TYPE', 'uploadAsset');
      }
    },
  },
  {
    id: 'ASSET-EMPTY-CONTENT-TYPE',
    level: 'MUST',
    seedSections: ['4.5', '7'],
    title:
      'A PNG file stored under image/png, sent again with the Content-Type header present and empty, is refused: 415 UNSUPPORTED_MIME_TYPE or 400 INVALID_REQUEST in the error body',
    requires: ASSETS,
    async run(t) {
      const bytes = sampleFor('image/png');
      await expectStoredUnderOwnType(t, bytes, 'image/png');
      const reply = await t.a.upload(bytes, '');
      // An empty value names no accepted type (415, seed 4.5), and is equally a required header sent without its value (400, invalid request).
      expectStatus(reply, [415, 400], 'with UNSUPPORTED_MIME_TYPE or INVALID_REQUEST for a PNG file declared with an empty Content-Type');
      expectErrorBody(reply, ['UNSUPPORTED_MIME_TYPE', 'INVALID_REQUEST'], 'uploadAsset');
    },
  },
  {
    id: 'ASSET-LISTED-TYPE-READINGS-BOUNDED',
    level: 'MUST',
    seedSections: ['2.5', '4.5', '7'],
    bounds: ['upload-media-type-case', 'upload-media-type-parameters'],
    title: `A file stored under its listed type, sent again declared ${LISTED_TYPE_READINGS.map((reading) => `"${reading.declared}"`).join(', ')}, is stored as that type with the file's size and SHA-256, or refused with a 4xx in the error body`,
    requires: ASSETS,
    async run(t) {
      for (const reading of LISTED_TYPE_READINGS) {
        const bytes = sampleFor(reading.listed);
        await expectStoredUnderOwnType(t, bytes, reading.listed);
        judgeListedTypeReading(t, reading, bytes, await t.a.upload(bytes, reading.declared));
      }
    },
  },
  {
    id: 'ASSET-CONTENT-MISMATCH',
    level: 'MUST',
    seedSections: ['4.5', '7'],
    title: 'A PNG file declared audio/wav (content not matching the type) answers 415 UNSUPPORTED_MIME_TYPE',
    requires: ASSETS,
    async run(t) {
      const sample = mismatchedSample();
      expectError(await t.a.upload(sample.bytes, sample.declaredMimeType), 415, 'UNSUPPORTED_MIME_TYPE', 'uploadAsset');
    },
  },
  ...oversizeChecks,
  ...sizeUnitChecks,
  sizeUnitObservation,
  {
    id: 'ASSET-GET-SAME',
    level: 'MUST',
    seedSections: ['2.5', '4.6'],
    title: 'GET /v1/assets/{asset_id} returns the same Asset as the upload',
    requires: ASSETS,
    async run(t) {
      const { asset } = await uploadSample(t.a, 'image/png');
      const reply = await t.a.getAsset(asset.id);
      expectSuccess(reply, `for GET /v1/assets/${asset.id} by its owner`);
      expectValidBody(reply, 'getAsset');
      const differences = assetDifferences(asset, reply.json);
      if (differences.length > 0) t.fail('the Asset the upload answered', differences.join('; '));
    },
  },
  {
    id: 'ASSET-CONTENT-NEVER-RETURNED',
    level: 'MUST',
    seedSections: ['2.5', '4.6'],
    title: 'Neither the upload nor GET /v1/assets/{asset_id} returns the file content; GET answers the Asset JSON',
    requires: ASSETS,
    async run(t) {
      // Distinctive text, so that any echo of it, plain or base64, can be told from metadata.
      const marker = `Conformance marker ${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
      const content = `${plainTextSample}${marker}\n`;
      const { reply: uploaded, asset } = await uploadSample(t.a, 'text/plain', new TextEncoder().encode(content));
      const read = await t.a.getAsset(asset.id);
      expectSuccess(read, `for GET /v1/assets/${asset.id} by its owner`);
      expectValidBody(read, 'getAsset');
      const echoes = [marker, Buffer.from(content).toString('base64')];
      for (const [name, reply] of [
        ['the upload', uploaded],
        ['GET', read],
      ] as const) {
        if (echoes.some((echo) => reply.text.includes(echo)))
          t.fail(`no file content in the reply to ${name} (seed 2.5)`, `the uploaded text in ${JSON.stringify(reply.text.slice(0, 200))}`);
      }
    },
  },
  {
    id: 'ASSET-DELETE-RESULT',
    level: 'MUST',
    seedSections: ['3', '4.7'],
    title: 'DELETE /v1/assets/{asset_id} by the owner answers {id, object: "asset", deleted: true}',
    requires: ASSETS,
    async run(t) {
      const { asset } = await uploadSample(t.a, 'image/png');
      const reply = await t.a.deleteAsset(asset.id);
      expectSuccess(reply, `for DELETE /v1/assets/${asset.id} by its owner`);
      expectValidBody(reply, 'deleteAsset');
      if (reply.json.id !== asset.id) t.fail(`id ${asset.id}, the deleted asset`, `id ${JSON.stringify(reply.json.id)}`);
    },
  },
  {
    id: 'ASSET-DELETED-GET-FAILS',
    level: 'MUST',
    seedSections: ['3', '4.7'],
    title: 'After DELETE, GET /v1/assets/{asset_id} no longer succeeds',
    requires: ASSETS,
    async run(t) {
      const assetId = await deletedAsset(t);
      expectNotSuccess(await t.a.getAsset(assetId), `GET /v1/assets/${assetId} after it was deleted`);
    },
  },
  {
    id: 'ASSET-DELETED-REFERENCE-FAILS',
    level: 'MUST',
    seedSections: ['2.2', '3', '4.7'],
    title: 'After DELETE, a decision referencing the asset no longer succeeds',
    requires: ASSETS_IN_DECISIONS,
    async run(t) {
      const assetId = await deletedAsset(t);
      expectNotSuccess(await decideReferencing(t.a, assetId, 'image'), `a decision referencing ${assetId} after it was deleted`);
    },
  },
  {
    id: 'ASSET-DELETED-CODE',
    level: 'OBSERVE',
    seedSections: ['3'],
    title: 'What referencing, reading and deleting a deleted asset answer',
    requires: ASSETS_IN_DECISIONS,
    openPoint: 'asset-after-delete',
    async run(t) {
      const assetId = await deletedAsset(t);
      const replies = { reference: await decideReferencing(t.a, assetId, 'image'), GET: await t.a.getAsset(assetId), DELETE: await t.a.deleteAsset(assetId) };
      const status = referenceChoice<number>('asset-after-delete', 'status');
      const code = referenceChoice<string>('asset-after-delete', 'code');
      t.observe({
        summary: Object.entries(replies)
          .map(([name, reply]) => `${name}: ${statusWithCode(reply)}`)
          .join('; '),
        matchesReference: Object.values(replies).every((reply) => reply.status === status && reply.json?.error?.code === code),
      });
    },
  },
  {
    id: 'ASSET-UNKNOWN-GET',
    level: 'MUST',
    seedSections: ['3', '4.6', '7'],
    title: 'GET /v1/assets/{asset_id} for an unknown id answers 404 ASSET_NOT_FOUND',
    requires: ASSETS,
    async run(t) {
      expectError(await t.a.getAsset(unknownAssetId()), 404, 'ASSET_NOT_FOUND', 'getAsset');
    },
  },
  {
    id: 'ASSET-UNKNOWN-DELETE',
    level: 'MUST',
    seedSections: ['3', '4.7', '7'],
    title: 'DELETE /v1/assets/{asset_id} for an unknown id answers 404 ASSET_NOT_FOUND',
    requires: ASSETS,
    async run(t) {
      expectError(await t.a.deleteAsset(unknownAssetId()), 404, 'ASSET_NOT_FOUND', 'deleteAsset');
    },
  },
  {
    id: 'ASSET-UNKNOWN-REFERENCE',
    level: 'MUST',
    seedSections: ['2.2', '3', '7'],
    title: 'A decision referencing an unknown asset id answers 404 ASSET_NOT_FOUND',
    requires: ASSETS_IN_DECISIONS,
    async run(t) {
      expectError(await decideReferencing(t.a, unknownAssetId(), 'image'), 404, 'ASSET_NOT_FOUND', 'decide');
    },
  },
  {
    id: 'ASSET-EXPIRED-REFERENCE',
    level: 'MUST',
    seedSections: ['2.5', '3', '7'],
    title: 'A decision referencing an asset after its expires_at answers 410 ASSET_EXPIRED',
    requires: ASSETS_IN_DECISIONS,
    prepare: prepareExpiry,
    async run(t) {
      const assetId = await expiredAsset(t);
      expectError(await decideReferencing(t.expiring!.client, assetId, 'image'), 410, 'ASSET_EXPIRED', 'decide');
    },
  },
  {
    id: 'ASSET-EXPIRED-READ',
    level: 'OBSERVE',
    seedSections: ['3', '4.6'],
    title: "What GET /v1/assets/{asset_id} answers after the asset's expires_at",
    requires: ASSETS,
    openPoint: 'asset-read-after-expiry',
    prepare: prepareExpiry,
    async run(t) {
      const assetId = await expiredAsset(t);
      const reply = await t.expiring!.client.getAsset(assetId);
      t.observe({
        summary: `GET: ${statusWithCode(reply)}`,
        matchesReference:
          reply.status === referenceChoice<number>('asset-read-after-expiry', 'status') &&
          reply.json?.error?.code === referenceChoice<string>('asset-read-after-expiry', 'code'),
      });
    },
  },
  ...ownReferenceChecks,
  {
    id: 'ASSET-AUDIO-ONLY-CONTEXT',
    level: 'OBSERVE',
    seedSections: ['2.2', '2.4'],
    title: 'What a choice question about a context of one audio clip and nothing else answers: choice, abstain and abstention_status',
    requires: ASSETS_IN_DECISIONS,
    openPoint: 'audio-without-transcript',
    async run(t) {
      const { asset } = await uploadSample(t.a, 'audio/wav');
      const reply = await t.a.decide(decideBody([mediaPart('audio', asset.id, 'voicemail')]));
      const answers: Array<Record<string, unknown>> = Object.values(reply.json?.answers ?? {});
      const abstains = referenceChoice<boolean>('audio-without-transcript', 'only_audio_abstains');
      const status = referenceChoice<string>('audio-without-transcript', 'abstention_status');
      t.observe({
        summary: `${statusWithCode(reply)}${answers.map((answer) => `; choice ${JSON.stringify(answer.choice)}, abstain ${JSON.stringify(answer.abstain)}, abstention_status ${JSON.stringify(answer.abstention_status)}`).join('')}`,
        matchesReference:
          isSuccess(reply) && answers.length > 0 && answers.every((answer) => answer.abstain === abstains && answer.abstention_status === status),
      });
    },
  },
  {
    id: 'ASSET-READ-DELETE-STATUS',
    level: 'OBSERVE',
    seedSections: ['4.6', '4.7'],
    title: 'The success statuses of GET and DELETE on /v1/assets/{asset_id}',
    requires: ASSETS,
    openPoint: 'asset-read-delete-status',
    async run(t) {
      const { asset } = await uploadSample(t.a, 'image/png');
      const read = await t.a.getAsset(asset.id);
      const deleted = await t.a.deleteAsset(asset.id);
      t.observe({
        summary: `GET: ${statusWithCode(read)}; DELETE: ${statusWithCode(deleted)}`,
        matchesReference:
          read.status === referenceChoice<number>('asset-read-delete-status', 'get_status') &&
          deleted.status === referenceChoice<number>('asset-read-delete-status', 'delete_status'),
      });
    },
  },
  {
    id: 'ASSET-UPLOAD-BODY-LIMIT',
    level: 'OBSERVE',
    seedSections: ['4.5', '8'],
    title: 'Whether a valid upload over 256 KiB (the JSON body limit) is accepted',
    requires: ASSETS,
    openPoint: 'upload-body-limit',
    async run(t) {
      const sample = oversizeSample('image', JSON_BODY_LIMIT_BYTES);
      const reply = await t.a.upload(sample.bytes, sample.mimeType);
      const appliesToUploads = referenceChoice<boolean>('upload-body-limit', 'applies_to_uploads');
      t.observe({
        summary: `a ${sample.bytes.byteLength}-byte ${sample.mimeType}: ${statusWithCode(reply)}`,
        matchesReference: appliesToUploads ? !isSuccess(reply) : reply.status === 201,
      });
    },
  },
  {
    id: 'ASSET-PAGES-LIMIT-STATUS',
    level: 'OBSERVE',
    seedSections: ['7', '8'],
    title: `What a PDF of ${maxDocumentPages + 1} pages (over the page limit) answers, and with which code`,
    requires: ASSETS,
    openPoint: 'name-only-statuses',
    async run(t) {
      const reply = await t.a.upload(pdfWithPages(maxDocumentPages + 1), 'application/pdf');
      observeNameOnly(t, reply, 'DOCUMENT_TOO_MANY_PAGES');
    },
  },
  {
    id: 'ASSET-AUDIO-LENGTH-STATUS',
    level: 'OBSERVE',
    seedSections: ['7', '8'],
    title: `What a WAV clip of ${maxAudioSeconds + 1} s (over the duration limit) answers, and with which code`,
    requires: ASSETS,
    openPoint: 'name-only-statuses',
    async run(t) {
      const reply = await t.a.upload(wavSeconds(maxAudioSeconds + 1), 'audio/wav');
      observeNameOnly(t, reply, 'AUDIO_TOO_LONG');
    },
  },
  {
    id: 'ASSET-MEDIA-TYPE-PARAMETERS',
    level: 'OBSERVE',
    seedSections: ['4.5'],
    title: 'Whether uploads declared "image/png; charset=binary" and "text/plain; charset=utf-8" are accepted, and the mime_type they get',
    requires: ASSETS,
    openPoint: 'upload-media-type-parameters',
    async run(t) {
      await observeListedTypeReadings(t, 'upload-media-type-parameters', referenceChoice<string>('upload-media-type-parameters', 'parameters') === 'accept');
    },
  },
  {
    id: 'ASSET-MEDIA-TYPE-CASE',
    level: 'OBSERVE',
    seedSections: ['4.5'],
    title: 'Whether an upload declared "IMAGE/PNG" (a listed type in upper case) is accepted, and the mime_type it gets',
    requires: ASSETS,
    openPoint: 'upload-media-type-case',
    async run(t) {
      await observeListedTypeReadings(t, 'upload-media-type-case', referenceChoice<string>('upload-media-type-case', 'letter_case') === 'insensitive');
    },
  },
]);
