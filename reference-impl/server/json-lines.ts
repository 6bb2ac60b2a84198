// Reads a file of JSON lines record by record through one fixed buffer. The decision log grows
// with every decision a server makes: read whole, it would one day no longer fit in one string
// (V8's limit is about 512 MB, some five million decisions) and the server could not start again.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';

const NEWLINE = 0x0a;
const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/**
 * Calls onRecord with each line parsed as JSON and its 1-based number, in order, and onCorrupt
 * with the number of each line that is not JSON (a torn last line after a crash, say), skipping blank lines.
 * A missing file has no lines. Splitting on the newline byte is safe in UTF-8: no byte of a
 * multi-byte character is 0x0A.
 */
export function readJsonLines(
  path: string,
  onRecord: (value: unknown, line: number) => void,
  onCorrupt: (line: number) => void,
  chunkBytes = DEFAULT_CHUNK_BYTES,
): void {
  if (!existsSync(path)) return;
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(chunkBytes);
    // The start of a line the previous chunks ended in, copied out of the reused buffer.
    let partial: Buffer[] = [];
    let lineNumber = 0;
    const line = (bytes: Buffer): void => {
      lineNumber += 1;
      const text = bytes.toString('utf8');
      if (text.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        onCorrupt(lineNumber);
        return;
      }
      onRecord(value, lineNumber);
    };
    for (;;) {
      const read = readSync(fd, chunk, 0, chunkBytes, null);
      if (read === 0) break;
      const view = chunk.subarray(0, read);
      let start = 0;
      for (let end = view.indexOf(NEWLINE); end !== -1; end = view.indexOf(NEWLINE, start)) {
        const piece = view.subarray(start, end);
        line(partial.length === 0 ? piece : Buffer.concat([...partial, piece]));
        partial = [];
        start = end + 1;
      }
      if (start < read) partial.push(Buffer.from(view.subarray(start)));
    }
    if (partial.length > 0) line(Buffer.concat(partial));
  } finally {
    closeSync(fd);
  }
}
