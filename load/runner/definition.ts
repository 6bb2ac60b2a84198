// Types of the shared scenario definitions (plain JavaScript in load/definitions/, typed with
// JSDoc there), and the loader the Node runner uses.
import type { Executor as ExecutorType, ScenarioDefinition, Settings } from '../definitions/common.js';

export type Executor = ExecutorType;
export type { LoadRequest, LoadResponse, ScenarioDefinition, Settings } from '../definitions/common.js';

/** Every scenario, by the name of its file in load/definitions/ and load/scenarios/. */
export const SCENARIOS = ['decide-steady', 'decide-capacity', 'mixed', 'spike', 'soak', 'cold-start'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export function isScenarioName(name: string): name is ScenarioName {
  return (SCENARIOS as readonly string[]).includes(name);
}

export async function loadDefinition(name: ScenarioName, settings: Settings): Promise<ScenarioDefinition> {
  const module = (await import(`../definitions/${name}.js`)) as { scenario(env: Settings): ScenarioDefinition };
  return module.scenario(settings);
}
