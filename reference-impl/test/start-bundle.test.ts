// The bundled start (start.mjs) runs the same server as the TypeScript sources: every reader it
// loads on first upload (file-type, music-metadata, pdf.js, fflate, tesseract.js, the audio
// worker) loads from the CommonJS bundle, which carries the request validators compiled at
// bundle time, and the start leaves V8's code cache beside the bundle.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { familyOfType, type SampleMimeType } from '../../harness/samples/limits.ts';
import { acceptedSamples } from '../../harness/samples/media.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cacheDir = join(root, 'node_modules', '.cache', 'decision-reference');
const KEY = 'svc_live_start_bundle_test_key';

let child: ReturnType<typeof spawn>;
let baseUrl: string;
let dataDir: string;
let stderr = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'decision-start-bundle-'));
  child = spawn(process.execPath, ['reference-impl/start.mjs', '--port', '0', '--data-dir', dataDir, '--keys', `bundle=${KEY}`, '--log-level', 'warn'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let out = '';
  baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.on('exit', (code) => reject(new Error(`start.mjs exited with ${code}: ${out}${stderr}`)));
  });
}, 120_000);

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** The bundle this start ran: the newest, as every start marks the bundle it runs as just used. */
function currentBundle(): string {
  const bundles = readdirSync(cacheDir).filter((name) => /^serve-[0-9a-f]+\.cjs$/.test(name));
  expect(bundles.length).toBeGreaterThan(0);
  return bundles.sort((a, b) => statSync(join(cacheDir, b)).mtimeMs - statSync(join(cacheDir, a)).mtimeMs)[0]!;
}

test('the start leaves a V8 code cache beside the bundle it ran', async () => {
  const bundle = currentBundle();
  // Written right after the server listens, so it may land a moment after the address is printed.
  const hasCache = () => readdirSync(cacheDir).some((name) => name.startsWith(`${bundle}.`) && name.endsWith('.v8cache'));
  for (let waited = 0; !hasCache() && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(hasCache()).toBe(true);
});

test('the bundle carries the validators compiled at bundle time, in place of the empty module', () => {
  const text = readFileSync(join(cacheDir, currentBundle()), 'utf8');
  expect(text).toContain('// precompiled-validators:standalone');
  expect(text).not.toContain('// spec/precompiled-validators.ts');
});

test.each(Object.keys(acceptedSamples))('a %s upload is read by the bundled server and decided on', { timeout: 60_000 }, async (mimeType) => {
  const upload = await request(`${baseUrl}/v1/assets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': mimeType },
    body: acceptedSamples[mimeType as SampleMimeType],
  });
  const asset = (await upload.body.json()) as { id: string };
  expect(upload.statusCode).toBe(201);
  const decide = await request(`${baseUrl}/v1/decide`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      context: [
        { type: 'text', text: 'What is this about?' },
        { type: familyOfType(mimeType as SampleMimeType), asset_id: asset.id },
      ],
      questions: { topic: { type: 'choice', options: { billing: 'Payments', shipping: 'Delivery' } } },
    }),
  });
  const answer = (await decide.body.json()) as { error?: { code: string } };
  expect(decide.statusCode, JSON.stringify(answer)).toBe(200);
  expect(stderr).toBe('');
});
