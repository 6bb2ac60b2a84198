// Reading a PDF leaves the process's JSON functions native: pdf.js's legacy build carries core-js,
// which replaces JSON.stringify (and JSON.parse) on Node 20 with versions several times slower,
// and every response body and report written after the first PDF went through them
// (assets/pdf-options.mjs puts the native ones back). In a process of its own: a test file
// beside it in a shared worker may have loaded pdf.js directly.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Whether JSON.stringify and JSON.parse are still the functions a fresh Node process started with
 * after `read` runs in it (by identity: core-js makes its replacements print as native code).
 */
async function nativesAfter(read: string): Promise<unknown> {
  const script = `
    const { stringify, parse } = JSON;
    const { pdfWithPages } = await import('./harness/samples/pdf.ts');
    ${read}
    console.log(JSON.stringify({ stringify: JSON.stringify === stringify, parse: JSON.parse === parse, pages }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root });
  return JSON.parse(stdout);
}

test('counting the pages of a PDF leaves JSON.stringify and JSON.parse native', async () => {
  const read = `const { pdfPageCount } = await import('./reference-impl/assets/pdf-pages.ts');
    const pages = await pdfPageCount(pdfWithPages(3));`;
  expect(await nativesAfter(read)).toEqual({ stringify: true, parse: true, pages: 3 });
});

test('pdf.js loaded directly, without the loader, does replace them: the test above can fail', async () => {
  const read = `const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const pages = (await pdfjs.getDocument({ data: pdfWithPages(3), verbosity: 0 }).promise).numPages;`;
  expect(await nativesAfter(read)).toEqual({ stringify: false, parse: false, pages: 3 });
});
