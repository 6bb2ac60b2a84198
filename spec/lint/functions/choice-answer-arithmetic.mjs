// Seed 2.4 and 3: in a choice answer, `confidence` is the top-1 probability minus the top-2
// probability, and `choice` is the selected (most probable) option id, or null when `abstain`
// is true. Every example that shows a choice answer (anything under an `example` or `examples`
// key with `type: choice` and `probabilities`) must get this arithmetic right, because the
// mock serves these examples and readers learn the semantics from them. With a single option
// the top-2 probability is taken as 0 (open point choice-probabilities-sum).
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '../openapi/pointer.mjs';
/** @import { JsonObject, Path } from '../openapi/pointer.mjs' */
/** @import { LintResult } from '../openapi/pointer.mjs' */

const TOLERANCE = 1e-9;

export default createRulesetFunction({ input: null, options: null }, function choiceAnswerArithmetic(document) {
  /** @type {LintResult[]} */
  const results = [];
  eachExampleObject(document, [], false, (answer, path) => {
    if (answer.type !== 'choice' || !isObject(answer.probabilities)) return;
    results.push(...answerProblems(answer, path));
  });
  return results;
});

/**
 * Visits every object inside an `example` or `examples` value.
 * @param {unknown} node @param {Path} path @param {boolean} inExample
 * @param {(answer: JsonObject, path: Path) => void} visit
 */
function eachExampleObject(node, path, inExample, visit) {
  if (Array.isArray(node)) {
    node.forEach((child, index) => eachExampleObject(child, [...path, index], inExample, visit));
    return;
  }
  if (!isObject(node)) return;
  if (inExample) visit(node, path);
  for (const [key, child] of Object.entries(node)) {
    eachExampleObject(child, [...path, key], inExample || key === 'example' || key === 'examples', visit);
  }
}

/**
 * @param {JsonObject} answer a choice answer with its probabilities
 * @param {Path} path
 * @returns {LintResult[]}
 */
function answerProblems(answer, path) {
  const entries = Object.entries(answer.probabilities);
  if (entries.length === 0 || entries.some(([, p]) => typeof p !== 'number')) {
    return [{ message: 'A choice answer needs one numeric probability per option.', path: [...path, 'probabilities'] }];
  }
  const sorted = entries.map(([, p]) => p).sort((a, b) => b - a);
  const top1 = sorted[0];
  const top2 = sorted[1] ?? 0;
  /** @type {LintResult[]} */
  const problems = [];
  const margin = top1 - top2;
  if (typeof answer.confidence !== 'number' || Math.abs(answer.confidence - margin) > TOLERANCE) {
    problems.push({
      message: `confidence must be top-1 minus top-2 probability (${top1} - ${top2} = ${round(margin)}); found ${JSON.stringify(answer.confidence)}.`,
      path: [...path, 'confidence'],
    });
  }
  if (answer.abstain === true) {
    if (answer.choice !== null)
      problems.push({ message: `choice must be null when abstain is true; found ${JSON.stringify(answer.choice)}.`, path: [...path, 'choice'] });
  } else {
    const argmax = entries.filter(([, p]) => p === top1).map(([id]) => id);
    if (!argmax.includes(answer.choice)) {
      problems.push({
        message: `choice must be the most probable option (${argmax.join(' or ')}) when not abstaining; found ${JSON.stringify(answer.choice)}.`,
        path: [...path, 'choice'],
      });
    }
  }
  return problems;
}

function round(/** @type {number} */ value) {
  return Math.round(value * 1e9) / 1e9;
}
