// The property suite's catalogue, in run order: the decide properties (decide-properties.ts)
// and the asset lifecycle model (asset-model.ts). Ids are unique across the suite.
import { checksById, type Check } from '../harness/check.ts';
import { assetModelChecks } from './asset-model.ts';
import { decidePropertyChecks, type PropertyCheckOptions } from './decide-properties.ts';

/** The property checks; `options.replay` replays shrunk decide cases by fast-check path (with the run's --seed). */
export function propertyChecksWith(options: PropertyCheckOptions = {}): Check[] {
  const checks = [...decidePropertyChecks(options), ...assetModelChecks];
  checksById(checks, 'property');
  return checks;
}

export const propertyChecks: Check[] = propertyChecksWith();
