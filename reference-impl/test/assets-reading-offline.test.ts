// Media reading needs no network: tesseract.js would fetch its engine and English model from a CDN
// unless told where they are installed. The reader runs here in a child process whose every thread
// (the tesseract and PDF workers inherit the preload) refuses DNS, fetch and any socket but a local
// pipe (tsx's own), and reports each attempt.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), 'reading-offline-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const blocker = `
const net = require('node:net');
const dns = require('node:dns');
const { isMainThread } = require('node:worker_threads');
const thread = isMainThread ? 'main' : 'worker';
const deny = (what) => { process.stderr.write('NETWORK ' + what + ' in ' + thread + '\\n'); throw new Error('network refused'); };
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const options = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (options && typeof options === 'object' && typeof options.path === 'string') return connect.apply(this, args);
  deny('socket');
};
dns.lookup = () => deny('dns');
globalThis.fetch = () => deny('fetch');
process.stderr.write('guarded ' + thread + '\\n');
`;

const url = (path: string) => pathToFileURL(join(import.meta.dirname, path)).href;
const script = `
import { createAssetReader } from ${JSON.stringify(url('../assets/reading/asset-reader.ts'))};
import { textPicture } from ${JSON.stringify(url('../../harness/samples/text-picture.ts'))};
import { scannedPdf } from ${JSON.stringify(url('../../harness/samples/scanned-pdf.ts'))};
const reader = createAssetReader({ ocrWorkers: 1 });
const picture = await reader.read({ mime_type: 'image/png', sha256: 'a' }, textPicture(['offline words']));
const scan = await reader.read({ mime_type: 'application/pdf', sha256: 'b' }, scannedPdf([['scanned words']]));
console.log(JSON.stringify([picture, scan]));
await reader.close();
`;

test('OCR of a picture and of a scanned PDF with every thread refusing the network', async () => {
  writeFileSync(join(folder, 'block-network.cjs'), blocker);
  writeFileSync(join(folder, 'read.mts'), script);
  const { stdout, stderr } = await run(process.execPath, ['--require', join(folder, 'block-network.cjs'), '--import', 'tsx', join(folder, 'read.mts')], {
    cwd: join(import.meta.dirname, '../..'), // where --import finds tsx
    timeout: 60_000,
  });
  expect(JSON.parse(stdout)).toEqual([{ text: 'offline words' }, { text: 'scanned words' }]);
  expect(stderr).toMatch(/guarded worker/); // the workers were guarded too
  expect(stderr).not.toMatch(/NETWORK/);
}, 60_000);
