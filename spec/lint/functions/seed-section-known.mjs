// Traceability: every id cited in an `x-seed-section` anywhere in the document is a section
// listed in the top-level `x-seed-sections` index, so a typo cannot point at a section the
// seed does not have.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '../openapi/pointer.mjs';
import { eachCitation } from '../openapi/seed-citations.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

export default createRulesetFunction({ input: null, options: null }, function seedSectionKnown(document) {
  const index = Array.isArray(document['x-seed-sections']) ? document['x-seed-sections'] : [];
  const known = new Set(index.filter(isObject).map((section) => section.id));
  if (known.size === 0) return [{ message: 'The document has no `x-seed-sections` index of seed section ids.', path: [] }];
  /** @type {LintResult[]} */
  const results = [];
  eachCitation(document, [], (cited, path) => {
    if (!Array.isArray(cited)) {
      results.push({ message: `x-seed-section must be an array of section ids; got ${JSON.stringify(cited)}.`, path });
      return;
    }
    cited.forEach((id, position) => {
      if (!known.has(id)) results.push({ message: `Seed section ${JSON.stringify(id)} is not in x-seed-sections.`, path: [...path, position] });
    });
  });
  return results;
});
