// Every point the seed leaves open is recorded fully: a unique `id`, the `seed_section` that
// leaves it open (a section of x-seed-sections), what is `open`, and the reference server's
// choice with a `summary` (`x-reference-choice`), another choice the seed equally allows
// (`x-alternate-choice`: a `summary` and whether the alternate profile `served` it; a point
// the seed allows only one behaviour on says `none: true` and why in the summary), and what the
// seed still rules out inside the point (`x-seed-bounds`). Reports and suites print these
// fields when they skip or relax a check, so a missing one leaves a skip unexplained.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '../openapi/pointer.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

export default createRulesetFunction({ input: null, options: null }, function openPointComplete(document) {
  const points = document['x-open-points'];
  if (!Array.isArray(points) || points.length === 0) return [{ message: 'The document lists no x-open-points.', path: [] }];
  const sections = new Set((Array.isArray(document['x-seed-sections']) ? document['x-seed-sections'] : []).filter(isObject).map((section) => section.id));
  const seenIds = new Set();
  /** @type {LintResult[]} */
  const results = [];
  points.forEach((point, index) => {
    const at = ['x-open-points', index];
    if (!isObject(point)) {
      results.push({ message: 'An open point must be an object.', path: at });
      return;
    }
    const label = typeof point.id === 'string' ? `Open point ${point.id}` : `Open point ${index}`;
    if (!isText(point.id)) results.push({ message: `${label} has no id.`, path: at });
    else if (seenIds.has(point.id)) results.push({ message: `${label}: the id is used twice.`, path: [...at, 'id'] });
    seenIds.add(point.id);
    if (!isText(point.seed_section)) results.push({ message: `${label} has no seed_section.`, path: at });
    else if (!sections.has(point.seed_section))
      results.push({ message: `${label}: seed_section ${point.seed_section} is not in x-seed-sections.`, path: [...at, 'seed_section'] });
    if (!isText(point.open)) results.push({ message: `${label} does not say what is open (\`open\`).`, path: at });
    const choice = point['x-reference-choice'];
    if (!isObject(choice)) results.push({ message: `${label} has no x-reference-choice.`, path: at });
    else if (!isText(choice.summary)) results.push({ message: `${label}: x-reference-choice has no summary.`, path: [...at, 'x-reference-choice'] });
    const alternate = point['x-alternate-choice'];
    if (!isObject(alternate))
      results.push({ message: `${label} has no x-alternate-choice (another behaviour the seed allows, or none with the reason).`, path: at });
    else {
      if (!isText(alternate.summary)) results.push({ message: `${label}: x-alternate-choice has no summary.`, path: [...at, 'x-alternate-choice'] });
      if (typeof alternate.served !== 'boolean')
        results.push({
          message: `${label}: x-alternate-choice does not say whether the alternate profile serves it (\`served\`).`,
          path: [...at, 'x-alternate-choice'],
        });
    }
    const bounds = point['x-seed-bounds'];
    if (!Array.isArray(bounds) || bounds.length === 0 || !bounds.every(isText)) {
      results.push({ message: `${label} does not list what the seed still rules out inside it (\`x-seed-bounds\`).`, path: at });
    }
  });
  return results;
});

function isText(/** @type {unknown} */ value) {
  return typeof value === 'string' && value.trim().length > 0;
}
