// Requests the old run sent together (one overlap group, harness/overlap-group.ts) are replayed
// together: sent one by one, a burst no longer tests what it tested. Requests of a burst that
// also deleted the asset they use are skipped instead: which of them met the asset depended on
// the order the server happened to handle them in, and sending them together again draws that
// race anew, so their outcome is not reproducible. The deletion itself, whose outcome does not
// depend on that order, is still sent, so that later requests meet the state the old run left.
import type { RecordedExchange } from './recorded.ts';

/** Why a burst of requests sent together cannot be replayed to the same outcome. */
export const OVERLAP_RACE =
  'overlap not reproducible: sent together with the deletion of the asset it uses, so its outcome depends on which request the server handled first';
/** Why a request of a burst is skipped when another request of that burst cannot be replayed. */
export const OVERLAP_INCOMPLETE = 'overlap not reproducible: a request it was sent together with cannot be replayed';

/** The exchanges in order, those of one overlap group (recorded one after another) as one group, every other alone. */
export function replayGroups(exchanges: readonly RecordedExchange[]): RecordedExchange[][] {
  const groups: RecordedExchange[][] = [];
  for (const exchange of exchanges) {
    const last = groups.at(-1);
    const first = last?.[0];
    if (exchange.overlapGroup !== undefined && first?.overlapGroup === exchange.overlapGroup && first.checkId === exchange.checkId) last!.push(exchange);
    else groups.push([exchange]);
  }
  return groups;
}

const pathOf = (exchange: RecordedExchange) => new URL(exchange.request.url).pathname;

/** The requests of a group that name a resource another request of the group deletes: their outcome was a race. */
export function racing(group: readonly RecordedExchange[]): Set<RecordedExchange> {
  const raced = new Set<RecordedExchange>();
  for (const deletion of group.filter((exchange) => exchange.request.method === 'DELETE')) {
    const id = decodeURIComponent(pathOf(deletion).split('/').at(-1) ?? '');
    if (id === '') continue;
    const uses = (exchange: RecordedExchange) => pathOf(exchange).includes(id) || (exchange.request.body ?? '').includes(id);
    for (const exchange of group) if (exchange !== deletion && uses(exchange)) raced.add(exchange);
  }
  return raced;
}
