// Headless Chromium for the rendering tests, with nothing to install beyond `npm ci`: the browser
// comes compressed inside the @sparticuz/chromium package (unpacked into the temp folder on first
// use, no download) and puppeteer-core drives it. CHROMIUM_PATH points at another browser instead.
// Nothing reaches the network: the page is a local file and background services are switched off.
//
// The packaged browser needs NSS, NSPR and expat, which a bare machine may lack; the package carries
// them (al2023.tar.br) but unpacks them only on AWS Lambda, so they are unpacked here and always
// used, with the package's own fonts: the page renders the same on every machine.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';

const TIMEOUT_MS = 60_000;

const QUIET_FLAGS = [
  '--no-sandbox',
  '--no-zygote',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--font-render-hinting=none',
];

/** The regular files of a tar archive (the package's archives hold nothing else). */
function* tarFiles(archive: Buffer): Generator<{ name: string; bytes: Buffer }> {
  for (let offset = 0; offset + 512 <= archive.length; ) {
    const header = archive.subarray(offset, offset + 512);
    const name = header.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    if (name === '') return;
    const size = parseInt(header.toString('utf8', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
    const type = String.fromCharCode(header[156]!);
    if (type === '0' || type === '\0') yield { name, bytes: archive.subarray(offset + 512, offset + 512 + size) };
    offset += 512 + Math.ceil(size / 512) * 512;
  }
}

/** Unpacks the libraries the packaged browser links against (once per temporary folder: once per test run, under the run's own, test/scratch-folder.ts) and returns their folder. */
async function bundledLibraries(): Promise<string> {
  const folder = join(tmpdir(), 'decision-chromium-libs');
  if (existsSync(join(folder, 'lib', 'libnss3.so'))) return join(folder, 'lib');
  const packageBin = join(dirname(fileURLToPath(import.meta.resolve('@sparticuz/chromium'))), '..', '..', 'bin');
  const archive = brotliDecompressSync(await readFile(join(packageBin, 'al2023.tar.br')));
  // Unpacked beside the final folder and renamed into place, so that a concurrent run never sees half of it.
  const staging = await mkdtemp(`${folder}-`);
  for (const { name, bytes } of tarFiles(archive)) {
    await mkdir(dirname(join(staging, name)), { recursive: true });
    await writeFile(join(staging, name), bytes);
  }
  await rename(staging, folder).catch(async () => rm(staging, { recursive: true, force: true }));
  return join(folder, 'lib');
}

/**
 * A fontconfig folder whose fonts.conf names the fonts executablePath() unpacked under the
 * temporary folder. The package's own fonts.conf names /tmp/fonts whatever the temporary folder
 * is: with the run's own folder (test/scratch-folder.ts), the browser found no font on a clean
 * machine and drew no text, and passed only where an earlier run had left /tmp/fonts behind.
 */
async function fontConfig(): Promise<string> {
  const folder = join(tmpdir(), 'decision-fontconfig');
  const xml = (path: string) => path.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const conf = `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${xml(join(tmpdir(), 'fonts'))}</dir>
  <cachedir>${xml(join(tmpdir(), 'fonts-cache'))}</cachedir>
</fontconfig>
`;
  await mkdir(folder, { recursive: true });
  // Written beside and renamed into place, so that a browser starting meanwhile reads it whole.
  const staging = join(folder, `fonts.conf.${process.pid}`);
  await writeFile(staging, conf);
  await rename(staging, join(folder, 'fonts.conf'));
  return folder;
}

/** The browser to launch, and the environment it needs. */
async function browserToLaunch(): Promise<{ executablePath: string; env: Record<string, string | undefined> }> {
  if (process.env.CHROMIUM_PATH) return { executablePath: process.env.CHROMIUM_PATH, env: process.env };
  const executablePath = await chromium.executablePath();
  const libraries = await bundledLibraries();
  return {
    executablePath,
    env: {
      ...process.env,
      LD_LIBRARY_PATH: [libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_PATH: await fontConfig(),
    },
  };
}

async function withPage<T>(htmlPath: string, width: number, height: number, use: (page: import('puppeteer-core').Page) => Promise<T>): Promise<T> {
  const profile = await mkdtemp(join(tmpdir(), 'report-chromium-'));
  let browser: Browser | undefined;
  try {
    const { executablePath, env } = await browserToLaunch();
    browser = await puppeteer.launch({
      executablePath,
      env,
      headless: 'shell',
      args: QUIET_FLAGS,
      userDataDir: profile,
      defaultViewport: { width, height },
      timeout: TIMEOUT_MS,
    });
    const page = await browser.newPage();
    page.setDefaultTimeout(TIMEOUT_MS);
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
    return await use(page);
  } finally {
    await browser?.close();
    await rm(profile, { recursive: true, force: true });
  }
}

export async function screenshot(htmlPath: string, pngPath: string, width: number, height: number): Promise<void> {
  await withPage(htmlPath, width, height, async (page) => {
    await page.screenshot({ path: pngPath as `${string}.png`, type: 'png' });
  });
}

/** The DOM after the page's scripts ran, serialised. */
export function dumpDom(htmlPath: string): Promise<string> {
  return withPage(htmlPath, 1280, 800, (page) => page.content());
}
