// Which rule of this kit covers each of oasdiff's breaking-change checks (checks.ts), or why
// none needs to. oasdiff names a schema check after where the schema sits (request body,
// property, parameter, header; response body, property, header) and what changed; this kit
// walks every schema the same way on its side of the wire, so one kit rule per side covers the
// check wherever the schema sits. The README table is rendered from this (readme.ts).
import {
  OASDIFF_ERROR_CHECKS,
  OASDIFF_KEYWORD_ERROR_CHECKS,
  OASDIFF_KEYWORD_WARNING_CHECKS,
  OASDIFF_POLICY_ERROR_CHECKS,
  OASDIFF_WARNING_CHECKS,
} from './checks.ts';

/**
 * covered: the kit rules that report the change; `walked` when the kit walks a subschema that
 * appeared or disappeared against `{}` (which admits everything), so the rules of the
 * subschema's own keywords report it, whichever they are.
 */
export type Coverage = { covered: string[]; walked?: true } | { na: string } | { missing: string };

const WALKED = (rules: string[] = []): Coverage => ({ covered: rules, walked: true });

const DEPRECATION =
  'n/a: deprecation and sunset policy (x-sunset, deprecated operations); this API changes only under a new major version (seed 9), which the versioning rules judge';

/** Checks named outright: paths, operations, security, bodies, statuses, headers. */
const NAMED: Record<string, Coverage> = {
  'api-path-removed-before-sunset': { covered: ['path-removed'] },
  'api-path-removed-without-deprecation': { covered: ['path-removed'] },
  'api-path-sunset-parse': { covered: ['path-removed'] },
  'api-removed-before-sunset': { covered: ['operation-removed'] },
  'api-removed-without-deprecation': { covered: ['operation-removed'] },
  'api-security-removed': { covered: ['security-changed', 'security-added'] },
  'api-global-security-removed': { covered: ['security-changed', 'security-added'] },
  'api-security-scope-added': { na: 'n/a: scopes belong to OAuth 2 and OpenID Connect schemes; the API authenticates with an HTTP bearer key' },
  'api-global-security-scope-added': { na: 'n/a: scopes belong to OAuth 2 and OpenID Connect schemes; the API authenticates with an HTTP bearer key' },
  'webhook-removed': { na: 'n/a: the API declares no webhooks' },
  'new-required-request-default-parameter-to-existing-path': { covered: ['request-parameter-added-required'] },
  'new-required-request-parameter': { covered: ['request-parameter-added-required'] },
  'new-required-request-header-property': { covered: ['request-property-added-required'] },
  'new-required-request-property': { covered: ['request-property-added-required'] },
  'new-required-request-property-with-default': { covered: ['request-property-added-required'] },
  'request-body-added-required': { covered: ['request-body-became-required'] },
  'request-body-became-required': { covered: ['request-body-became-required'] },
  'request-body-media-type-removed': { covered: ['request-media-type-removed'] },
  'request-body-removed': { covered: ['request-body-removed'] },
  'request-parameter-became-required': { covered: ['request-parameter-became-required'] },
  'request-parameter-removed': { covered: ['request-parameter-removed'] },
  'request-parameter-removed-before-sunset': { covered: ['request-parameter-removed'] },
  'request-property-removed': { covered: ['request-property-removed'] },
  'request-property-became-required-with-default': { covered: ['request-property-became-required'] },
  'required-response-header-removed': { covered: ['response-header-removed'] },
  'response-header-became-optional': { covered: ['response-header-became-optional'] },
  'response-media-type-removed': { covered: ['response-media-type-removed'] },
  'response-media-type-name-generalized': { covered: ['response-media-type-removed'] },
  'response-media-type-name-changed': { covered: ['response-media-type-removed'] },
  'response-required-property-removed': { covered: ['response-property-removed'] },
  'response-success-status-removed': { covered: ['response-status-removed'] },
  // A media type without a schema is walked as `{}`: the schema's own keywords report the change.
  'request-body-media-type-schema-added': { covered: ['request-type-narrowed', 'request-property-added-required', 'request-keyword-changed'] },
  'response-body-media-type-schema-removed': { covered: ['response-type-widened', 'response-property-removed', 'response-keyword-changed'] },
  'new-request-path-parameter': { covered: ['path-removed', 'path-added'] },
  'response-media-type-parameter-changed': { covered: ['response-media-type-removed'] },
  'response-media-type-parameter-removed': { covered: ['response-media-type-removed'] },
  'request-body-wrapped-in-one-of': { missing: 'a body schema wrapped in a oneOf is compared as a new oneOf, not against its variant' },
  'request-body-wrapped-in-one-of-original-preserved': { missing: 'a body schema wrapped in a oneOf is compared as a new oneOf, not against its variant' },
  'response-body-wrapped-in-one-of': { missing: 'a body schema wrapped in a oneOf is compared as a new oneOf, not against its variant' },
  'response-body-wrapped-in-one-of-original-preserved': { missing: 'a body schema wrapped in a oneOf is compared as a new oneOf, not against its variant' },
};

/** Where oasdiff says the schema sits, longest first, and the side of the wire it is on. */
const PLACES: ReadonlyArray<[string, 'request' | 'response']> = [
  ['request-parameter-property-', 'request'],
  ['request-header-property-', 'request'],
  ['request-parameter-', 'request'],
  ['request-property-', 'request'],
  ['request-body-', 'request'],
  ['response-header-', 'response'],
  ['response-property-', 'response'],
  ['response-body-', 'response'],
];

const BOUND_STEMS: Record<string, string> = {
  max: 'maximum',
  min: 'minimum',
  'exclusive-max': 'exclusive-maximum',
  'exclusive-min': 'exclusive-minimum',
  'max-length': 'max-length',
  'min-length': 'min-length',
  'max-items': 'max-items',
  'min-items': 'min-items',
  'max-properties': 'max-properties',
  'min-properties': 'min-properties',
  'max-contains': 'max-contains',
  'min-contains': 'min-contains',
};

/** What changed, as oasdiff names it, to the kit's rule stems on that side. */
function stemsFor(change: string): string[] | undefined {
  const bound =
    /^(exclusive-max|exclusive-min|max-length|min-length|max-items|min-items|max-properties|min-properties|max-contains|min-contains|max|min)-(set|unset|increased|decreased)$/.exec(
      change,
    );
  if (bound) {
    const [, keyword, how] = bound;
    const narrowing = keyword!.startsWith('max') || keyword === 'exclusive-max' ? 'decreased' : 'increased';
    const widening = narrowing === 'decreased' ? 'increased' : 'decreased';
    return [`${BOUND_STEMS[keyword!]}-${how === 'set' ? narrowing : how === 'unset' ? widening : how}`];
  }
  const stems: Record<string, string[]> = {
    'became-enum': ['enum-added'],
    'enum-value-removed': ['enum-value-removed'],
    'enum-value-added': ['enum-value-added'],
    'const-added': ['enum-added'],
    'const-changed': ['enum-value-removed', 'enum-value-added'],
    'const-removed': ['enum-removed'],
    'became-not-nullable': ['property-became-non-nullable'],
    'became-nullable': ['property-became-nullable'],
    'became-required': ['property-became-required'],
    'became-optional': ['property-became-optional'],
    'type-changed': ['type-changed', 'type-narrowed', 'type-widened'],
    'type-generalized': ['type-widened'],
    'type-specialized': ['type-narrowed'],
    'list-of-types-narrowed': ['type-narrowed'],
    'list-of-types-widened': ['type-widened'],
    'all-of-added': ['all-of-member-added'],
    'all-of-removed': ['all-of-member-removed'],
    'any-of-added': ['variant-added'],
    'one-of-added': ['variant-added'],
    'any-of-removed': ['variant-removed'],
    'one-of-removed': ['variant-removed'],
    'multiple-of-set': ['multiple-of-narrowed'],
    'multiple-of-unset': ['multiple-of-widened'],
    'multiple-of-changed': ['multiple-of-narrowed', 'multiple-of-widened', 'multiple-of-changed'],
    'unique-items-set': ['unique-items-added'],
    'unique-items-unset': ['unique-items-removed'],
    'pattern-added': ['pattern-added'],
    'pattern-removed': ['pattern-removed'],
    'pattern-changed': ['pattern-changed', 'pattern-narrowed', 'pattern-widened', 'pattern-undecided'],
    'contains-added': ['contains-added'],
    'contains-removed': ['contains-removed'],
    'dependent-required-added': ['dependent-required-added'],
    'dependent-required-removed': ['dependent-required-removed'],
    'dependent-required-changed': ['dependent-required-added', 'dependent-required-removed'],
    'if-added': ['condition-changed'],
    'if-removed': ['condition-changed'],
    'content-encoding-changed': ['keyword-changed'],
    'content-media-type-changed': ['keyword-changed'],
    'content-schema-added': ['keyword-changed'],
    'content-schema-removed': ['keyword-changed'],
    // A `false` schema is walked as `not: {}`.
    'schema-became-false': ['negation-added'],
    'schema-became-not-false': ['negation-removed'],
    'pattern-property-added': ['pattern-properties-changed'],
    'pattern-property-removed': ['pattern-properties-changed'],
  };
  return stems[change];
}

export function coverageOf(check: string): Coverage {
  const named = NAMED[check];
  if (named) return named;
  if (/sunset|deprecat/.test(check)) return { na: DEPRECATION };
  if (/stability/.test(check)) return { na: 'n/a: x-stability-level is an oasdiff extension this API does not use' };
  if (/x-extensible-enum/.test(check)) return { na: 'n/a: x-extensible-enum is an extension this API does not use' };
  if (/media-type-item-schema/.test(check)) return { na: 'n/a: itemSchema is OpenAPI 3.2; the spec is OpenAPI 3.1' };
  if (/-(dependent-schema|property-names|then|else|unevaluated-items|unevaluated-properties|prefix-items)-(added|removed)$/.test(check)) return WALKED();
  for (const [place, side] of PLACES) {
    if (!check.startsWith(place)) continue;
    const stems = stemsFor(check.slice(place.length));
    if (stems) {
      const covered = stems.map((stem) => `${side}-${stem}`);
      // A patternProperties entry is walked like any subschema unless additionalProperties also judges names.
      return stems.includes('pattern-properties-changed') ? WALKED(covered) : { covered };
    }
  }
  return { missing: 'no rule of this kit' };
}

export interface CoverageRow {
  check: string;
  level: 'ERR' | 'WARN';
  coverage: Coverage;
}

const rowsOf = (checks: readonly string[], level: 'ERR' | 'WARN'): CoverageRow[] => checks.map((check) => ({ check, level, coverage: coverageOf(check) }));

export const coverageRows = (): CoverageRow[] => [
  ...rowsOf(OASDIFF_ERROR_CHECKS, 'ERR'),
  ...rowsOf(OASDIFF_WARNING_CHECKS, 'WARN'),
  ...rowsOf(OASDIFF_KEYWORD_ERROR_CHECKS, 'ERR'),
  ...rowsOf(OASDIFF_KEYWORD_WARNING_CHECKS, 'WARN'),
  ...rowsOf(OASDIFF_POLICY_ERROR_CHECKS, 'ERR'),
];
