// oasdiff's breaking-change checks: every check id of oasdiff's catalogue (oasdiff 1.32.1,
// `oasdiff checks changelog`) at level ERR or WARN, in its own order: first those oasdiff's
// default rules detect, then those for keywords it lists but does not evaluate (contains,
// dependentSchemas, propertyNames, ...) and those about its own extensions. The coverage
// table (coverage.ts) says which rule of this kit covers each.
const ids = (text: string) => text.trim().split(/\s+/);

export const OASDIFF_VERSION = '1.32.1';

export const OASDIFF_ERROR_CHECKS: readonly string[] = ids(`
api-deprecated-sunset-missing api-deprecated-sunset-parse api-global-security-removed api-global-security-scope-added
api-path-removed-before-sunset api-path-removed-without-deprecation api-path-sunset-parse api-removed-before-sunset
api-removed-without-deprecation api-security-removed api-security-scope-added api-sunset-date-changed-too-small
api-sunset-date-too-small new-required-request-default-parameter-to-existing-path new-required-request-header-property
new-required-request-parameter new-required-request-property new-required-request-property-with-default
request-body-added-required request-body-all-of-added request-body-any-of-removed request-body-became-enum
request-body-became-not-nullable request-body-became-required request-body-const-added request-body-const-changed
request-body-enum-value-removed request-body-exclusive-max-decreased request-body-exclusive-max-set
request-body-exclusive-min-increased request-body-exclusive-min-set request-body-list-of-types-narrowed
request-body-max-decreased request-body-max-items-decreased request-body-max-items-set request-body-max-length-decreased
request-body-max-length-set request-body-max-properties-decreased request-body-max-properties-set request-body-max-set
request-body-media-type-removed request-body-media-type-schema-added request-body-min-increased
request-body-min-items-increased request-body-min-items-set request-body-min-length-increased request-body-min-length-set
request-body-min-properties-increased request-body-min-properties-set request-body-min-set request-body-multiple-of-changed
request-body-multiple-of-set request-body-one-of-removed request-body-removed request-body-type-changed
request-body-unique-items-set request-body-wrapped-in-one-of request-header-property-became-enum
request-header-property-became-required request-parameter-became-enum request-parameter-became-not-nullable
request-parameter-became-required request-parameter-deprecated-sunset-missing request-parameter-enum-value-removed
request-parameter-exclusive-max-decreased request-parameter-exclusive-max-set request-parameter-exclusive-min-increased
request-parameter-exclusive-min-set request-parameter-list-of-types-narrowed request-parameter-max-decreased
request-parameter-max-items-decreased request-parameter-max-items-set request-parameter-max-length-decreased
request-parameter-max-length-set request-parameter-max-properties-decreased request-parameter-max-properties-set
request-parameter-max-set request-parameter-min-increased request-parameter-min-items-increased
request-parameter-min-items-set request-parameter-min-length-increased request-parameter-min-length-set
request-parameter-min-properties-increased request-parameter-min-properties-set request-parameter-min-set
request-parameter-multiple-of-set request-parameter-pattern-added request-parameter-property-became-not-nullable
request-parameter-property-enum-value-removed request-parameter-property-list-of-types-narrowed
request-parameter-property-type-specialized request-parameter-removed-before-sunset request-parameter-type-changed
request-property-all-of-added request-property-any-of-removed request-property-became-enum
request-property-became-not-nullable request-property-became-required request-property-became-required-with-default
request-property-const-added request-property-const-changed request-property-deprecated-sunset-missing
request-property-enum-value-removed request-property-exclusive-max-decreased request-property-exclusive-max-set
request-property-exclusive-min-increased request-property-exclusive-min-set request-property-list-of-types-narrowed
request-property-max-decreased request-property-max-items-decreased request-property-max-items-set
request-property-max-length-decreased request-property-max-length-set request-property-max-properties-decreased
request-property-max-properties-set request-property-max-set request-property-min-increased
request-property-min-items-increased request-property-min-items-set request-property-min-length-increased
request-property-min-length-set request-property-min-properties-increased request-property-min-properties-set
request-property-min-set request-property-multiple-of-changed request-property-multiple-of-set
request-property-one-of-removed request-property-pattern-added request-property-type-changed
request-property-unique-items-set required-response-header-removed response-body-all-of-removed
response-body-any-of-added response-body-became-nullable response-body-const-changed response-body-const-removed
response-body-exclusive-max-increased response-body-exclusive-max-unset response-body-exclusive-min-decreased
response-body-exclusive-min-unset response-body-list-of-types-widened response-body-max-increased
response-body-max-items-increased response-body-max-items-unset response-body-max-length-increased
response-body-max-length-unset response-body-max-properties-increased response-body-max-properties-unset
response-body-max-unset response-body-media-type-schema-removed response-body-min-decreased
response-body-min-items-decreased response-body-min-items-unset response-body-min-length-decreased
response-body-min-length-unset response-body-min-properties-decreased response-body-min-properties-unset
response-body-min-unset response-body-multiple-of-changed response-body-multiple-of-unset response-body-one-of-added
response-body-type-changed response-body-type-generalized response-body-unique-items-unset
response-body-wrapped-in-one-of response-header-became-nullable response-header-became-optional
response-header-exclusive-max-increased response-header-exclusive-max-unset response-header-exclusive-min-decreased
response-header-exclusive-min-unset response-header-max-increased response-header-max-items-increased
response-header-max-items-unset response-header-max-length-increased response-header-max-length-unset
response-header-max-properties-increased response-header-max-properties-unset response-header-max-unset
response-header-min-decreased response-header-min-items-decreased response-header-min-items-unset
response-header-min-length-decreased response-header-min-length-unset response-header-min-properties-decreased
response-header-min-properties-unset response-header-min-unset response-header-multiple-of-unset
response-header-type-changed response-header-type-generalized response-media-type-name-generalized
response-media-type-removed response-property-all-of-removed response-property-any-of-added
response-property-became-nullable response-property-became-optional response-property-const-changed
response-property-const-removed response-property-deprecated-sunset-missing response-property-enum-value-added
response-property-exclusive-max-increased response-property-exclusive-max-unset
response-property-exclusive-min-decreased response-property-exclusive-min-unset response-property-list-of-types-widened
response-property-max-increased response-property-max-items-increased response-property-max-items-unset
response-property-max-length-increased response-property-max-length-unset response-property-max-properties-increased
response-property-max-properties-unset response-property-max-unset response-property-min-decreased
response-property-min-items-decreased response-property-min-items-unset response-property-min-length-decreased
response-property-min-length-unset response-property-min-properties-decreased response-property-min-properties-unset
response-property-min-unset response-property-multiple-of-changed response-property-multiple-of-unset
response-property-one-of-added response-property-pattern-removed response-property-type-changed
response-property-type-generalized response-property-unique-items-unset response-required-property-removed
response-success-status-removed sunset-deleted webhook-removed
`);

export const OASDIFF_WARNING_CHECKS: readonly string[] = ids(`
request-body-wrapped-in-one-of-original-preserved request-parameter-pattern-changed
request-parameter-property-type-changed request-parameter-removed request-property-pattern-changed
request-property-removed response-body-wrapped-in-one-of-original-preserved response-media-type-name-changed
response-property-pattern-changed
`);

export const OASDIFF_KEYWORD_ERROR_CHECKS: readonly string[] = ids(`
request-body-contains-added request-body-content-encoding-changed request-body-content-media-type-changed
request-body-content-schema-added request-body-dependent-required-added request-body-dependent-required-changed
request-body-dependent-schema-added request-body-else-added request-body-if-added request-body-max-contains-decreased
request-body-max-contains-set request-body-media-type-item-schema-added request-body-min-contains-increased
request-body-min-contains-set request-body-pattern-property-added request-body-property-names-added
request-body-schema-became-false request-body-then-added request-body-unevaluated-items-added
request-body-unevaluated-properties-added request-parameter-max-contains-decreased request-parameter-max-contains-set
request-parameter-min-contains-increased request-parameter-min-contains-set request-parameter-property-schema-became-false
request-parameter-schema-became-false request-property-contains-added request-property-content-encoding-changed
request-property-content-media-type-changed request-property-content-schema-added
request-property-dependent-required-added request-property-dependent-required-changed
request-property-dependent-schema-added request-property-else-added request-property-if-added
request-property-max-contains-decreased request-property-max-contains-set request-property-min-contains-increased
request-property-min-contains-set request-property-pattern-property-added request-property-property-names-added
request-property-schema-became-false request-property-then-added request-property-unevaluated-items-added
request-property-unevaluated-properties-added response-body-contains-removed response-body-content-encoding-changed
response-body-content-media-type-changed response-body-content-schema-removed response-body-dependent-required-changed
response-body-dependent-required-removed response-body-dependent-schema-removed response-body-else-removed
response-body-if-removed response-body-max-contains-increased response-body-max-contains-unset
response-body-media-type-item-schema-removed response-body-media-type-item-schema-removed-untyped
response-body-min-contains-decreased response-body-min-contains-unset response-body-pattern-property-removed
response-body-property-names-removed response-body-schema-became-false response-body-then-removed
response-body-unevaluated-items-removed response-body-unevaluated-properties-removed response-header-max-contains-increased
response-header-max-contains-unset response-header-min-contains-decreased response-header-min-contains-unset
response-header-schema-became-not-false response-media-type-parameter-changed response-media-type-parameter-removed
response-property-contains-removed response-property-content-encoding-changed response-property-content-media-type-changed
response-property-content-schema-removed response-property-dependent-required-changed
response-property-dependent-required-removed response-property-dependent-schema-removed response-property-else-removed
response-property-if-removed response-property-max-contains-increased response-property-max-contains-unset
response-property-min-contains-decreased response-property-min-contains-unset response-property-pattern-property-removed
response-property-property-names-removed response-property-schema-became-not-false response-property-then-removed
response-property-unevaluated-items-removed response-property-unevaluated-properties-removed
`);

export const OASDIFF_KEYWORD_WARNING_CHECKS: readonly string[] = ids(`
request-body-prefix-items-added request-body-prefix-items-removed request-property-prefix-items-added
request-property-prefix-items-removed response-body-prefix-items-added response-body-prefix-items-removed
response-property-prefix-items-added response-property-prefix-items-removed
`);

/** Checks about oasdiff's own extensions and policies (stability levels, x-sunset, x-extensible-enum) and path templates. */
export const OASDIFF_POLICY_ERROR_CHECKS: readonly string[] = ids(`
api-invalid-stability-level api-stability-decreased new-request-path-parameter
request-parameter-sunset-date-changed-too-small request-parameter-sunset-date-too-small request-parameter-sunset-deleted
request-parameter-sunset-parse request-parameter-x-extensible-enum-value-removed request-property-deprecated-sunset-invalid
request-property-stability-decreased request-property-sunset-date-too-small request-property-x-extensible-enum-value-removed
response-property-deprecated-sunset-invalid response-property-stability-decreased response-property-sunset-date-too-small
`);
