// The parts of the kit that only some users need, and whose packages are therefore optional peer
// dependencies (package.json `peerDependencies` with `peerDependenciesMeta.optional`): npm never
// installs them with the kit. Testing one's own server needs none of them; the bundled reference
// server needs its readers and scorer (onnxruntime-node alone is close to 300 MB), the mock needs
// Prism, the spec linter needs Spectral. A command that needs a missing part says in one line how
// to install it, with the version ranges of the kit's package.json.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { kitRoot } from '../harness/kit-files.ts';
import { kitManifest } from '../reports/kit-identity.ts';

export const OPTIONAL_PARTS = {
  'reference-server': {
    what: 'the bundled reference server',
    packages: [
      'fastify',
      '@fastify/rate-limit',
      'onnxruntime-node',
      'onnx-proto',
      'tesseract.js',
      '@tesseract.js-data/eng',
      '@napi-rs/canvas',
      'pdfjs-dist',
      '@wasm-audio-decoders/flac',
      '@wasm-audio-decoders/ogg-vorbis',
      'mpg123-decoder',
      'ogg-opus-decoder',
      'music-metadata',
      'file-type',
      'image-size',
      'entities',
    ],
    instead: 'or test your own server with --base-url',
  },
  mock: { what: 'the Prism mock', packages: ['@stoplight/prism-cli'], instead: undefined },
  lint: {
    what: 'the spec linter',
    packages: ['@stoplight/spectral-cli', '@stoplight/spectral-core', '@stoplight/spectral-functions', '@stoplight/spectral-rulesets'],
    instead: undefined,
  },
} as const satisfies Record<string, { what: string; packages: readonly string[]; instead: string | undefined }>;

export type OptionalPart = keyof typeof OPTIONAL_PARTS;

/** A command needs a part whose packages are not installed; the message says how to install them. */
export class MissingPartError extends Error {}

/** Whether `name` resolves from the kit's own folder, as Node resolves a bare import: node_modules of each folder up. */
export function isInstalled(name: string, from: string = kitRoot): boolean {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'node_modules', name, 'package.json'))) return true;
    if (dirname(folder) === folder) return false;
  }
}

export function missingPackages(part: OptionalPart, from: string = kitRoot): string[] {
  return OPTIONAL_PARTS[part].packages.filter((name) => !isInstalled(name, from));
}

/**
 * The npm command that installs a part's packages at the kit's ranges. Scripts are ignored: none
 * of these packages needs its install script, and onnxruntime-node's would download CUDA files
 * from outside the npm registry on Linux x64. Double quotes keep `^` literal in every shell.
 */
export function installCommand(part: OptionalPart): string {
  const specs = OPTIONAL_PARTS[part].packages.map((name) => `"${name}@${kitManifest.peerDependencies[name]}"`);
  return `npm install --save-dev --ignore-scripts ${specs.join(' ')}`;
}

/** Throws MissingPartError, with the one line that says how to install the part, when any of its packages is missing. */
export function requirePart(part: OptionalPart, from: string = kitRoot): void {
  const missing = missingPackages(part, from);
  if (missing.length === 0) return;
  const { what, instead } = OPTIONAL_PARTS[part];
  throw new MissingPartError(
    `${what} needs packages that are not installed (${missing.join(', ')}); install them with: ${installCommand(part)}${instead ? ` (${instead})` : ''}`,
  );
}
