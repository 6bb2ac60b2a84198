// Seed 2.1, 2.2, 2.7 and 8 state limits that schema keywords carry (1 to 16 questions, 1 to 16
// parts, 1 to 8,000 characters, part ids up to 100 characters, the asset id and request id
// forms). `x-seed-limits.schema_keywords` records each once with the schema it applies to; this
// function fails when that schema lacks a recorded keyword or states another value, so deleting
// `maxProperties` from Questions or the `pattern` of AssetId cannot lint clean.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { follow, isObject, refToPath, valueAt } from '../openapi/pointer.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

const TABLE_PATH = ['x-seed-limits', 'schema_keywords'];

export default createRulesetFunction({ input: null, options: null }, function seedLimitsInSchemas(document) {
  const table = valueAt(document, TABLE_PATH);
  if (!isObject(table) || Object.keys(table).length === 0) {
    return [
      {
        message: 'x-seed-limits.schema_keywords must record the seed limits schema keywords carry, each with the schema it applies to.',
        path: ['x-seed-limits'],
      },
    ];
  }
  /** @type {LintResult[]} */
  const results = [];
  for (const [name, entry] of Object.entries(table)) {
    const entryPath = [...TABLE_PATH, name];
    if (!isObject(entry) || typeof entry.schema !== 'string' || !isObject(entry.keywords) || Object.keys(entry.keywords).length === 0) {
      results.push({ message: `Limit ${name} needs a \`schema\` reference and at least one entry in \`keywords\`.`, path: entryPath });
      continue;
    }
    const targetPath = refToPath(entry.schema);
    const target = targetPath === null ? null : follow(document, valueAt(document, targetPath), targetPath);
    if (target === null || !isObject(target.node)) {
      results.push({ message: `Limit ${name} applies to ${entry.schema}, which is not a schema of this document.`, path: [...entryPath, 'schema'] });
      continue;
    }
    for (const [keyword, expected] of Object.entries(entry.keywords)) {
      const stated = target.node[keyword];
      if (stated === undefined) {
        results.push({
          message: `${entry.schema} has no \`${keyword}\`; seed limit ${name} is ${JSON.stringify(expected)} (x-seed-limits).`,
          path: target.path,
        });
      } else if (JSON.stringify(stated) !== JSON.stringify(expected)) {
        results.push({
          message: `${entry.schema} states \`${keyword}: ${JSON.stringify(stated)}\`; seed limit ${name} is ${JSON.stringify(expected)} (x-seed-limits).`,
          path: [...target.path, keyword],
        });
      }
    }
  }
  return results;
});
