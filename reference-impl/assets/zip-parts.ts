// Named parts of a zip archive (a DOCX), inflated within a byte limit. The central directory says
// where each part is and what it inflates to; node:zlib inflates it off the main thread with
// maxOutputLength, which stops at the limit whatever the directory claims: a part that says 1 kB
// and inflates to gigabytes (a zip bomb whose sizes lie) costs no more than the limit, in memory
// or in time. Stored (uncompressed) and deflated parts only, as in every DOCX; zip64 records are
// read for archives that use them.
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';

const inflate = promisify(inflateRaw);

export type ZipParts = { parts: Map<string, Uint8Array> } | { failure: 'undecodable' } | { failure: 'over-limit'; part: string };

interface Entry {
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** The directory's entries by name, or undefined when the archive's structure is broken. */
function directory(bytes: Uint8Array): Map<string, Entry> | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const u64 = (at: number) => Number(view.getBigUint64(at, true));
  let end = bytes.length - 22;
  // The end record sits in the last 64 kB + 22 bytes (its comment is at most 65,535 bytes).
  while (end >= 0 && u32(end) !== END_OF_DIRECTORY) {
    if (bytes.length - end > 65_557) return undefined;
    end -= 1;
  }
  if (end < 0) return undefined;
  let count = u16(end + 10);
  let offset = u32(end + 16);
  if (end >= 20 && u32(end - 20) === ZIP64_LOCATOR) {
    const record = u64(end - 12);
    if (record + 56 > bytes.length || u32(record) !== ZIP64_END) return undefined;
    count = u64(record + 32);
    offset = u64(record + 48);
  }
  const entries = new Map<string, Entry>();
  for (let i = 0; i < count; i += 1) {
    if (offset + 46 > bytes.length || u32(offset) !== DIRECTORY_ENTRY) return undefined;
    const nameLength = u16(offset + 28);
    const extraLength = u16(offset + 30);
    const commentLength = u16(offset + 32);
    if (offset + 46 + nameLength + extraLength > bytes.length) return undefined;
    const name = Buffer.from(bytes.subarray(offset + 46, offset + 46 + nameLength)).toString('utf8');
    const entry: Entry = { method: u16(offset + 10), compressedSize: u32(offset + 20), size: u32(offset + 24), localOffset: u32(offset + 42) };
    // zip64 extra field: the 64-bit values of whichever fields are saturated, in this order.
    for (let at = offset + 46 + nameLength; at + 4 <= offset + 46 + nameLength + extraLength; at += 4 + u16(at + 2)) {
      if (u16(at) !== 0x0001) continue;
      let field = at + 4;
      for (const key of ['size', 'compressedSize', 'localOffset'] as const) {
        if (entry[key] !== 0xffffffff) continue;
        if (field + 8 > bytes.length) return undefined;
        entry[key] = u64(field);
        field += 8;
      }
    }
    if (!entries.has(name)) entries.set(name, entry);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The parts named, those present; each inflates to at most `maxBytes` (by its directory size
 * first, then by what it really inflates to).
 */
export async function readZipParts(bytes: Uint8Array, names: readonly string[], maxBytes: number): Promise<ZipParts> {
  let entries: Map<string, Entry> | undefined;
  try {
    entries = directory(bytes);
  } catch {
    entries = undefined; // a record running past the end
  }
  if (!entries) return { failure: 'undecodable' };
  const parts = new Map<string, Uint8Array>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const name of names) {
    const entry = entries.get(name);
    if (!entry) continue;
    if (entry.size > maxBytes) return { failure: 'over-limit', part: name };
    const local = entry.localOffset;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL_HEADER) return { failure: 'undecodable' };
    const dataAt = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (dataAt + entry.compressedSize > bytes.length) return { failure: 'undecodable' };
    const data = bytes.subarray(dataAt, dataAt + entry.compressedSize);
    if (entry.method === 0) {
      if (data.length > maxBytes) return { failure: 'over-limit', part: name };
      parts.set(name, data);
      continue;
    }
    if (entry.method !== 8) return { failure: 'undecodable' };
    try {
      parts.set(name, await inflate(data, { maxOutputLength: maxBytes }));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { failure: 'over-limit', part: name };
      return { failure: 'undecodable' };
    }
  }
  return { parts };
}
