// Headless Chromium for the rendering tests: Debian's `chromium` package (or CHROMIUM_PATH),
// with everything that would reach the network or keep state switched off.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const CHROMIUM = process.env.CHROMIUM_PATH ?? 'chromium';
const TIMEOUT_MS = 60_000;

async function chromium(htmlPath: string, mode: string[]): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), 'report-chromium-'));
  try {
    const { stdout } = await run(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        ...mode,
        pathToFileURL(htmlPath).href,
      ],
      { timeout: TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
      throw error;
    });
    return stdout;
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

export async function screenshot(htmlPath: string, pngPath: string, width: number, height: number): Promise<void> {
  await chromium(htmlPath, [`--screenshot=${pngPath}`, `--window-size=${width},${height}`]);
}

/** The DOM after the page's scripts ran, serialised. */
export function dumpDom(htmlPath: string): Promise<string> {
  return chromium(htmlPath, ['--dump-dom']);
}
