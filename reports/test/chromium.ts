// Headless Chromium for the rendering tests, with nothing to install beyond `npm ci`: the browser
// comes compressed inside the @sparticuz/chromium package (unpacked into the temp folder on first
// use, no download) and puppeteer-core drives it. CHROMIUM_PATH points at another browser instead.
// Nothing reaches the network: the page is a local file and background services are switched off.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

async function executablePath(): Promise<string> {
  return process.env.CHROMIUM_PATH || chromium.executablePath();
}

async function withPage<T>(htmlPath: string, width: number, height: number, use: (page: import('puppeteer-core').Page) => Promise<T>): Promise<T> {
  const profile = await mkdtemp(join(tmpdir(), 'report-chromium-'));
  let browser: Browser | undefined;
  try {
    browser = await puppeteer.launch({
      executablePath: await executablePath(),
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
