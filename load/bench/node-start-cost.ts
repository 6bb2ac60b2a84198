// What a Node start costs in this environment, with and without variables every Node process
// pays for; printed beside the cold start by bench:ref.
import { spawnSync } from 'node:child_process';
import { median } from '../compare.ts';

/**
 * Wall time of `node -e ''` with the environment as it is and without the named variables,
 * medians of `runs` alternating spawns. Some environments set variables that every Node process
 * pays for at start (NODE_EXTRA_CA_CERTS is read and parsed before any script runs); `npm run
 * serve` starts Node twice, npm's and the server's. What such a variable costs is printed beside
 * the cold start, which is measured with the environment as it is.
 */
export function nodeStartCost(variables: readonly string[], runs = 5): { asIs: number; without: number } {
  const without = { ...process.env };
  for (const name of variables) delete without[name];
  const time = (env: NodeJS.ProcessEnv) => {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', ''], { env, stdio: 'ignore' });
    return performance.now() - started;
  };
  const asIs: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    asIs.push(time(process.env));
    bare.push(time(without));
  }
  return { asIs: median(asIs), without: median(bare) };
}
