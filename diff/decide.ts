// The verdict on each breaking schema finding, decided on the sets of values rather than on the
// keywords that changed. The keyword rules say where and why a set may have moved; here:
// - when the two nodes a finding compared have equal canonical forms (canonical.ts), the change
//   is one of shape only: no value moved, and the finding becomes info, saying so;
// - otherwise a witness is searched (witness.ts): a whole value of the part, told apart by ajv
//   under the two documents; a finding keeps it;
// - when none is found, the part's canonical forms are checked for inclusion (inclusion.ts): proved,
//   no value valid before is refused now (a widening written in a shape the keyword rules read as a
//   narrowing), and the finding becomes info, saying so;
// - and otherwise the finding stays breaking, saying why there is no witness. Soundness first: a
//   change is never called safe for want of a counter-example, only when inclusion is proved.
// A non-breaking schema finding whose inclusion is not proved is searched for a witness too: one
// found overrules the keyword rule, and the finding becomes breaking with it.
import { canonicalForm, hasDynamicKeywords } from './canonical.ts';
import { includes, UNASSERTED, withChildrenOf } from './inclusion.ts';
import type { DocumentPair, Finding, Site } from './model.ts';
import { onlyCovariant } from './routes.ts';
import { isObject, type Json } from '../spec/index.ts';
import { canonical } from './schema-walk.ts';
import { findWitness, type WitnessSearch } from './witness.ts';

/** Decides every schema finding of the list in place; `sitesOf` gives where each schema finding was reported. */
export function decideBreaking(pair: DocumentPair, findings: Finding[], sitesOf: (finding: Finding) => readonly Site[]): void {
  for (const finding of findings) if (finding.class === 'breaking') decideBreakingFinding(pair, finding, sitesOf(finding));
  // Parts already shown broken need no second witness.
  const broken = new Set(findings.filter((f) => f.class === 'breaking' && f.witness).map((f) => `${f.witness!.operation}\u0000${f.witness!.part}`));
  for (const finding of findings) {
    if (finding.class !== 'non-breaking') continue;
    // Request side only: on the response side the kit's rules call some widenings harmless on
    // purpose (seed 9.3: clients ignore fields they do not know), which no value set can overrule.
    const sites = sitesOf(finding).filter((site) => site.part.side === 'request' && !broken.has(`${site.part.operation}\u0000${site.part.name}`));
    if (sites.length > 0) checkHarmless(pair, finding, sites);
  }
}

function decideBreakingFinding(pair: DocumentPair, finding: Finding, sites: readonly Site[]): void {
  if (sites.length === 0) {
    finding.witnessMissing = 'the change is to the operation or its parts, not to the values one part admits';
    return;
  }
  if (sites.every((site) => sameValuesAt(pair, site))) {
    finding.class = 'info';
    finding.valueSets = 'same';
    return;
  }
  const search = searchWitness(pair, sites);
  if ('witness' in search) {
    finding.witness = search.witness;
    return;
  }
  if (sites.every((site) => nothingLost(pair, site))) {
    finding.class = 'info';
    finding.valueSets = 'included';
    return;
  }
  finding.witnessMissing = sites.some((site) => differsOnlyUnasserted(pair, site))
    ? 'undecided: the two documents differ here only in discriminator, readOnly or writeOnly, which no JSON Schema validator asserts, so no value tells them apart; servers and generated clients act on them'
    : `undecided: ${search.missing}`;
}

/**
 * A keyword rule's "non-breaking" is checked too, where inclusion is not proved: a witness found
 * means a value is lost after all, and the finding becomes breaking with it.
 */
function checkHarmless(pair: DocumentPair, finding: Finding, sites: readonly Site[]): void {
  if (sites.every((site) => nothingLost(pair, site))) return;
  const search = searchWitness(pair, sites);
  if (!('witness' in search)) return;
  finding.class = 'breaking';
  finding.valueSets = 'lost';
  finding.witness = search.witness;
}

function searchWitness(pair: DocumentPair, sites: readonly Site[]): WitnessSearch {
  let missing = '';
  for (const site of sites) {
    const search = findWitness(pair, site);
    if ('witness' in search) return search;
    missing ||= search.missing;
  }
  return { missing };
}

/** Whether the two nodes' canonical forms differ only in keywords no validator asserts. */
function differsOnlyUnasserted(pair: DocumentPair, site: Site): boolean {
  const strip = (form: Json): Json =>
    Array.isArray(form)
      ? form.map(strip)
      : isObject(form)
        ? Object.fromEntries(
            Object.entries(form)
              .filter(([key]) => !UNASSERTED.has(key))
              .map(([key, value]) => [key, strip(value)]),
          )
        : form;
  const oldNode = canonicalForm(pair.old, { node: site.oldNode, pointer: site.old });
  const newNode = canonicalForm(pair.new, { node: site.newNode, pointer: site.new });
  return canonical(oldNode) !== canonical(newNode) && canonical(strip(oldNode)) === canonical(strip(newNode));
}

/**
 * Whether no value the part could carry before is refused now (request), or no value it may carry
 * now was refused before (response): the inclusion of the whole part's canonical forms.
 */
function nothingLost(pair: DocumentPair, site: Site): boolean {
  const included = (old: Json, next: Json) => (site.part.side === 'request' ? includes(next, old) : includes(old, next));
  if (included(canonicalForm(pair.old, site.part.old), canonicalForm(pair.new, site.part.new))) return true;
  // The node's own keywords, its subschemas as they were (a change inside one is judged at its own
  // node): enough when neither document reaches the node through "not" or "if", where admitting
  // more values can make the part admit fewer.
  if (!onlyCovariant(pair.old, site.part.old, site.old) || !onlyCovariant(pair.new, site.part.new, site.new)) return false;
  const oldNode = canonicalForm(pair.old, { node: site.oldNode, pointer: site.old });
  const newNode = canonicalForm(pair.new, { node: site.newNode, pointer: site.new });
  return site.part.side === 'request' ? includes(withChildrenOf(newNode, oldNode), oldNode) : includes(oldNode, withChildrenOf(newNode, oldNode));
}

/**
 * Whether the nodes compared at a site admit the same values. Not decided (false) when the part
 * still has a keyword whose meaning depends on its neighbours (unevaluated*): equal nodes could
 * then still evaluate differently for their parent.
 */
function sameValuesAt(pair: DocumentPair, site: Site): boolean {
  const oldPart = canonicalForm(pair.old, site.part.old);
  const newPart = canonicalForm(pair.new, site.part.new);
  if (hasDynamicKeywords(oldPart) || hasDynamicKeywords(newPart)) return false;
  const oldNode = canonicalForm(pair.old, { node: site.oldNode, pointer: site.old });
  const newNode = canonicalForm(pair.new, { node: site.newNode, pointer: site.new });
  return canonical(oldNode) === canonical(newNode);
}
