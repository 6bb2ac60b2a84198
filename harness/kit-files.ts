// Where the kit's own files are. The kit runs either from its TypeScript sources (a clone of the
// repository, through tsx) or from the JavaScript that `npm pack` builds into dist/ (an installed
// package, where no TypeScript is compiled at run time). Every module that names a file or script
// of the kit by path asks here, so that both forms find the same files.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when the kit runs from the build in dist/, false when from its TypeScript sources. */
const fromBuild = !import.meta.url.endsWith('.ts');

/** The folder the kit's modules run from: the repository's root, or dist/ of an installed package. */
export const kitRoot = fileURLToPath(new URL('../', import.meta.url));

/** The folder of the kit's package.json: the repository's root, or the installed package's. */
export const packageRoot = fromBuild ? join(kitRoot, '..') : kitRoot;

/**
 * Node's arguments that run one of the kit's scripts, named by its path from kitRoot without an
 * extension: the built JavaScript, or the TypeScript source through tsx.
 */
export function kitScript(path: string): string[] {
  return fromBuild ? [`${path}.js`] : ['--import', 'tsx', `${path}.ts`];
}
