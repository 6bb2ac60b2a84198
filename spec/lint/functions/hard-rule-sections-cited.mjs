// Coverage: every seed section that states hard rules (`hard_rules: true` in x-seed-sections)
// is cited by at least one node, so no binding part of the seed is left out of the spec.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '../openapi/pointer.mjs';
import { eachCitation } from '../openapi/seed-citations.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

export default createRulesetFunction({ input: null, options: null }, function hardRuleSectionsCited(document) {
  const cited = new Set();
  eachCitation(document, [], (ids) => {
    if (Array.isArray(ids)) for (const id of ids) cited.add(id);
  });
  const index = Array.isArray(document['x-seed-sections']) ? document['x-seed-sections'] : [];
  /** @type {LintResult[]} */
  const results = [];
  index.forEach((section, position) => {
    if (isObject(section) && section.hard_rules === true && !cited.has(section.id)) {
      results.push({
        message: `Seed section ${section.id} (${section.title}) states hard rules but no x-seed-section cites it.`,
        path: ['x-seed-sections', position],
      });
    }
  });
  return results;
});
