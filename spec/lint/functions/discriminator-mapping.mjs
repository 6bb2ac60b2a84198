// Seed 2.2, 2.3 and 2.4 type parts, questions and answers by their `type`. A discriminator
// must agree with its oneOf: each mapping key is the `const` of the discriminator property in
// the schema it maps to, every oneOf branch is mapped, and every mapping target is a branch.
// Code generators and the mock pick a branch from the mapping, so a mismatch silently
// validates or generates the wrong shape.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { eachSchema } from '../openapi/schemas.mjs';
import { follow, isObject } from '../openapi/pointer.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

export default createRulesetFunction({ input: null, options: null }, function discriminatorMapping(document) {
  /** @type {LintResult[]} */
  const results = [];
  eachSchema(document, (schema, path) => {
    const discriminator = schema.discriminator;
    if (!isObject(discriminator)) return;
    const at = [...path, 'discriminator'];
    const property = discriminator.propertyName;
    if (typeof property !== 'string') {
      results.push({ message: 'The discriminator has no propertyName.', path: at });
      return;
    }
    const branches = Array.isArray(schema.oneOf) ? schema.oneOf : [];
    const mapping = isObject(discriminator.mapping) ? discriminator.mapping : {};
    const targets = Object.values(mapping);
    const branchRefs = branches.map((branch) => (isObject(branch) ? branch.$ref : undefined));
    branchRefs.forEach((ref, index) => {
      if (typeof ref !== 'string')
        results.push({ message: `oneOf branch ${index} is inline; a mapped branch must be a $ref.`, path: [...path, 'oneOf', index] });
      else if (!targets.includes(ref))
        results.push({ message: `oneOf branch ${ref} is not a target of the discriminator mapping.`, path: [...path, 'oneOf', index] });
    });
    for (const [key, target] of Object.entries(mapping)) {
      const keyPath = [...at, 'mapping', key];
      if (!branchRefs.includes(target)) results.push({ message: `Mapping ${key} -> ${target} targets no oneOf branch.`, path: keyPath });
      const followed = follow(document, { $ref: target }, keyPath);
      const mapped = followed && isObject(followed.node) ? followed.node : null;
      const declared = mapped && isObject(mapped.properties) ? follow(document, mapped.properties[property], keyPath) : null;
      const value = declared && isObject(declared.node) ? declared.node.const : undefined;
      if (value !== key) {
        results.push({
          message: `Mapping key ${key} must equal the const of ${property} in ${target}; found ${value === undefined ? 'no const' : JSON.stringify(value)}.`,
          path: keyPath,
        });
      }
    }
  });
  return results;
});
