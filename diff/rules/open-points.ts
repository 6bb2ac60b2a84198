// x-open-points: what the seed leaves open, each with the reference server's choice. Servers
// may differ on an open point, so a change there is info, always with the open point's id.
import { isObject, type JsonObject } from '../../spec/index.ts';
import { rule, type FindingCollector } from '../findings.ts';
import type { DocumentPair, Rule } from '../model.ts';
import { child } from '../pointer.ts';
import { canonical } from '../schema-walk.ts';

const RULES = {
  choiceChanged: rule('open-point-reference-choice-changed', 'document', 'info', "an open point's reference choice (x-reference-choice) changed"),
  added: rule('open-point-added', 'document', 'info', 'an open point was added'),
  removed: rule('open-point-removed', 'document', 'info', 'an open point was removed (the spec now states the point, or no longer mentions it)'),
};

export const openPointRules: Rule[] = Object.values(RULES);

function pointsOf(doc: JsonObject): Map<string, { point: JsonObject; pointer: string }> {
  const list = Array.isArray(doc['x-open-points']) ? doc['x-open-points'] : [];
  return new Map(list.flatMap((point, index) => (isObject(point) ? [[String(point.id), { point, pointer: child('/x-open-points', index) }] as const] : [])));
}

export function compareOpenPoints(pair: DocumentPair, collector: FindingCollector): void {
  const before = pointsOf(pair.old);
  const after = pointsOf(pair.new);
  for (const [id, was] of before) {
    const now = after.get(id);
    if (!now) {
      collector.report(RULES.removed, { oldPointer: was.pointer, newPointer: '/x-open-points', openPoint: id, message: `Open point ${id} was removed from x-open-points.` });
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
    if (!before.has(id)) collector.report(RULES.added, { oldPointer: '/x-open-points', newPointer: now.pointer, openPoint: id, message: `Open point ${id} was added: ${String(now.point.open ?? '')}` });
  }
}
