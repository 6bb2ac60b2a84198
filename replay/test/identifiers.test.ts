// Ids of the old server are paired with the new server's and rewritten in later requests, whole:
// an asset id may end in "-" or "_" (seed 2.5), which a word-boundary match would cut short.
import { expect, test } from 'vitest';
import { IdentifierMap } from '../identifiers.ts';

test.each(['asset_SrxG4W0XdUqtwVJOGaKutip-', 'asset_0123456789abcdef_', 'asset_plainALNUM0123'])(
  '%s is paired and rewritten whole, in paths and bodies',
  (oldId) => {
    const ids = new IdentifierMap();
    const newId = 'asset_NEWnewNEWnew0000';
    const oldBody = JSON.stringify({ id: oldId, object: 'asset' });
    ids.sawOldResponse(oldBody, {});
    ids.pair(oldBody, JSON.stringify({ id: newId, object: 'asset' }), {}, {});
    expect(ids.rewrite(`/v1/assets/${oldId}`)).toEqual({ text: `/v1/assets/${newId}`, unknown: [] });
    expect(ids.rewrite(JSON.stringify({ asset_id: oldId })).text).toBe(JSON.stringify({ asset_id: newId }));
  },
);

test('an old-server id that was never paired is reported unknown, whole', () => {
  const ids = new IdentifierMap();
  ids.sawOldResponse(JSON.stringify({ id: 'asset_neverPaired00-' }), {});
  expect(ids.rewrite('/v1/assets/asset_neverPaired00-').unknown).toEqual(['asset_neverPaired00-']);
});
