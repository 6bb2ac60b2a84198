// The spec module: the one place the kit reads the Decision Service API description from.
export { openapiDocument, openapiJson, specPath, specSha256, specVersion, resolvePointer, deref, isObject } from './document.ts';
export type { Json, JsonObject } from './document.ts';
export { operations, operation, documentedResponse } from './operations.ts';
export type { Operation, HttpMethod } from './operations.ts';
export { openPoints, openPoint, referenceChoice, alternateChoice, choiceOf } from './open-points.ts';
export type { OpenPoint, Choice, ChoiceName } from './open-points.ts';
export { seedSections, hardRuleSections, seedSectionIndex } from './seed-sections.ts';
export type { SeedSection } from './seed-sections.ts';
export { errorCodes, errorCode } from './error-codes.ts';
export {
  requestBodyLimitBytes,
  defaultAssetLifetimeMs,
  currentModel,
  modelAliases,
  schemaKeywordLimits,
  coldStartAllowanceMs,
  clientTimeoutMs,
} from './seed-limits.ts';
export type { SchemaKeywordLimit } from './seed-limits.ts';
export {
  mediaFamilies,
  uploadFamilies,
  acceptedMimeTypes,
  mediaPartLimits,
  unsupportedPartTypes,
  partFamilies,
  isAcceptedMimeType,
  familyOfMimeType,
  partMayReference,
} from './media.ts';
export type { MediaFamily, AssetMimeType, UploadFamily, MediaPartLimit, UnsupportedPartType } from './media.ts';
export { apiKeyPrefix } from './api-key.ts';
export { generatedRequestIdPattern, isRequestId } from './request-id.ts';
export type { ErrorCodeInfo } from './error-codes.ts';
export { contractDocument, relaxOpenPointSchemas, isOpenSuccessResponse } from './contract-form.ts';
export { schemaValidator, requestBodyValidator, requestBodySchemaName, responseSchemaFor, validateResponseBody } from './validators.ts';
export type { ValidationMode, ValidationIssue, ValidationResult, Validator, ResponseSchemaChoice } from './validators.ts';
export type { components, paths, operations as operationTypes } from './types.gen.ts';
export type { Schemas } from './types.ts';
export { schemaNodes, resolvedSchema, constraintKeywords, jsonRequestSchema, requestParameters, pointerOf } from './request-schemas.ts';
export type { SchemaNode, SchemaStep, ConstraintKeyword, RequestParameter } from './request-schemas.ts';
