// x-open-points: what the seed leaves open, each with the reference server's choice. Servers
// may differ on an open point, so a change there is info, always with the open point's id;
// and every other finding on a node that documents an open point carries that id.
import { isObject, type Json, type JsonObject } from '../../spec/index.ts';
import type { DocumentStage, Run, RuleFamily } from '../family.ts';
import { rule } from '../findings.ts';
import type { Finding } from '../model.ts';
import { child, nodesOnPath } from '../pointer.ts';
import { canonical } from '../schema-walk.ts';

const RULES = {
  choiceChanged: rule('open-point-reference-choice-changed', 'document', 'info', "an open point's reference choice (x-reference-choice) changed"),
  added: rule('open-point-added', 'document', 'info', 'an open point was added'),
  removed: rule('open-point-removed', 'document', 'info', 'an open point was removed (the spec now states the point, or no longer mentions it)'),
};

function pointsOf(doc: JsonObject): Map<string, { point: JsonObject; pointer: string }> {
  const list = Array.isArray(doc['x-open-points']) ? doc['x-open-points'] : [];
  return new Map(list.flatMap((point, index) => (isObject(point) ? [[String(point.id), { point, pointer: child('/x-open-points', index) }] as const] : [])));
}

function compareOpenPoints({ pair, collector }: DocumentStage): void {
  const before = pointsOf(pair.old);
  const after = pointsOf(pair.new);
  for (const [id, was] of before) {
    const now = after.get(id);
    if (!now) {
      collector.report(RULES.removed, {
        oldPointer: was.pointer,
        newPointer: '/x-open-points',
        openPoint: id,
        message: `Open point ${id} was removed from x-open-points.`,
      });
    } else if (canonical(was.point['x-reference-choice']) !== canonical(now.point['x-reference-choice'])) {
      const summary = (point: JsonObject) => (isObject(point['x-reference-choice']) ? String(point['x-reference-choice'].summary ?? '') : '');
      collector.report(RULES.choiceChanged, {
        oldPointer: child(was.pointer, 'x-reference-choice'),
        newPointer: child(now.pointer, 'x-reference-choice'),
        openPoint: id,
        message: `The reference choice of open point ${id} changed (servers may differ here): "${summary(was.point)}" became "${summary(now.point)}".`,
      });
    }
  }
  for (const [id, now] of after) {
    if (!before.has(id))
      collector.report(RULES.added, {
        oldPointer: '/x-open-points',
        newPointer: now.pointer,
        openPoint: id,
        message: `Open point ${id} was added: ${String(now.point.open ?? '')}`,
      });
  }
}

/**
 * Tags each finding with the open point its node documents (the nearest x-open-point on the
 * way to it): the node describes the reference server's choice, where servers may differ. The
 * class stays: clients of the reference server are still affected.
 */
function tagOpenPoints({ pair }: Run, findings: Finding[]): void {
  for (const finding of findings) {
    if (finding.openPoint) continue;
    const cited = [...nodesOnPath(pair.new, finding.newPointer), ...nodesOnPath(pair.old, finding.oldPointer)]
      .map((node: Json) => (isObject(node) && typeof node['x-open-point'] === 'string' ? node['x-open-point'] : undefined))
      .filter((id): id is string => id !== undefined);
    if (cited.length > 0) finding.openPoint = cited.at(-1)!;
  }
}

export const openPointFamily: RuleFamily = {
  name: 'open points',
  stage: 'document',
  rules: Object.values(RULES),
  compare: compareOpenPoints,
  amend: tagOpenPoints,
};
