// Every point the seed leaves open is recorded fully: a unique `id`, the `seed_section` that
// leaves it open (a section of x-seed-sections), what is `open`, and the reference server's
// choice with a `summary` (`x-reference-choice`). Reports and suites print these fields when
// they skip or relax a check, so a missing one leaves a skip unexplained.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '../openapi/pointer.mjs';

export default createRulesetFunction({ input: null, options: null }, function openPointComplete(document) {
  const points = document['x-open-points'];
  if (!Array.isArray(points) || points.length === 0) return [{ message: 'The document lists no x-open-points.', path: [] }];
  const sections = new Set((Array.isArray(document['x-seed-sections']) ? document['x-seed-sections'] : []).filter(isObject).map((section) => section.id));
  const seenIds = new Set();
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
    else if (!sections.has(point.seed_section)) results.push({ message: `${label}: seed_section ${point.seed_section} is not in x-seed-sections.`, path: [...at, 'seed_section'] });
    if (!isText(point.open)) results.push({ message: `${label} does not say what is open (\`open\`).`, path: at });
    const choice = point['x-reference-choice'];
    if (!isObject(choice)) results.push({ message: `${label} has no x-reference-choice.`, path: at });
    else if (!isText(choice.summary)) results.push({ message: `${label}: x-reference-choice has no summary.`, path: [...at, 'x-reference-choice'] });
  });
  return results;
});

function isText(value) {
  return typeof value === 'string' && value.trim().length > 0;
}
