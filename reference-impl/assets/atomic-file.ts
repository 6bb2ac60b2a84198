// Writes that a crash cannot leave half done: the data goes to a temporary file in the same
// directory, is flushed to disk, and is renamed over the target (rename is atomic on POSIX).
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

export const temporarySuffix = '.tmp';

export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}${temporarySuffix}`;
  try {
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** Makes a rename or unlink in `directory` durable. Not every platform can open a directory. */
export async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort: durability of the directory entry is not something callers can act on.
  }
}
