// The decisions feedback can link to, kept off the JavaScript heap.
//
// Every decision a server ever made stays findable (decision-log.ts), so a long-running server
// holds hundreds of thousands of them. Kept as strings in a Map, each is an object the garbage
// collector marks on every major collection: with 280,000 decisions its pauses reached 20 ms
// (7 ms and under below 100,000), stalls that show up in the latency tail under load. Here the
// bytes of every key and question set live in one growing buffer, and the hash table and the
// entries in typed arrays: a handful of objects, whatever the number of decisions. Measured
// under a closed loop: major GC pauses stay about 2 ms up to 340,000 decisions; 200,000
// decisions take about 125 bytes each outside the heap (doubling slack included) instead of 159
// on it, and a full GC over them 6-10 instead of 26 ms.
//
// A key maps to a string, the question set's JSON. A set seen recently shares its bytes with the
// decisions before it. Overwriting a key (a caller reusing its own request id) leaves the old
// set's bytes unused in the buffer: an id reused that often is not worth reclaiming them for.
// Offsets are 32-bit: about 30 million decisions of one process, far beyond the reference
// server's purpose.

export interface DecisionIndex {
  /** Maps key to value, replacing the value of a key already present. */
  set(key: string, value: string): void;
  get(key: string): string | undefined;
  readonly size: number;
}

const MAX_ARENA_BYTES = 0x7fffffff;
/** Values seen recently whose bytes new entries share; bounded, emptied when full. */
const SHARED_VALUES = 1024;

/** FNV-1a over UTF-16 code units, as a non-zero 32-bit integer. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 1;
}

export function createDecisionIndex(initialEntries = 1024): DecisionIndex {
  let arena = Buffer.allocUnsafe(Math.max(64, initialEntries * 64));
  let arenaUsed = 0;
  // A power of two, as the table's size must be for its mask to reach every slot.
  let capacity = 2 ** Math.ceil(Math.log2(Math.max(16, initialEntries)));
  let keyStart = new Int32Array(capacity);
  let keyLength = new Int32Array(capacity);
  let valueStart = new Int32Array(capacity);
  let valueLength = new Int32Array(capacity);
  let hashes = new Int32Array(capacity);
  let count = 0;
  // Open addressing with linear probing; a slot holds entry index + 1, 0 when empty. At most half full.
  let slots = new Int32Array(capacity * 2);
  const sharedValues = new Map<string, number>();
  let scratch = Buffer.allocUnsafe(256);

  /** Room for bytes more at the end of the arena; returns where they go. */
  function reserve(bytes: number): number {
    if (arenaUsed + bytes > arena.length) {
      const needed = arenaUsed + bytes;
      if (needed > MAX_ARENA_BYTES) throw new RangeError('The decision index is full: restart the server to start a new index');
      const grown = Buffer.allocUnsafe(Math.min(MAX_ARENA_BYTES, Math.max(needed, arena.length * 2)));
      arena.copy(grown, 0, 0, arenaUsed);
      arena = grown;
    }
    const start = arenaUsed;
    arenaUsed += bytes;
    return start;
  }

  /** The entry index of key, or -1; the key's UTF-8 bytes are left in scratch. */
  function find(key: string, hash: number, bytes: number): number {
    if (scratch.length < bytes) scratch = Buffer.allocUnsafe(bytes * 2);
    scratch.write(key, 0, bytes, 'utf8');
    const mask = slots.length - 1;
    let slot = hash & mask;
    // Bounded: the table is never more than half full, and a lookup must never spin.
    for (let probes = 0; probes < slots.length; probes += 1, slot = (slot + 1) & mask) {
      const entry = slots[slot]! - 1;
      if (entry < 0) return -1;
      if (hashes[entry] === hash && keyLength[entry] === bytes && arena.compare(scratch, 0, bytes, keyStart[entry]!, keyStart[entry]! + bytes) === 0)
        return entry;
    }
    throw new Error('The decision index table has no free slot');
  }

  function place(entry: number): void {
    const mask = slots.length - 1;
    let slot = hashes[entry]! & mask;
    for (let probes = 0; slots[slot] !== 0; probes += 1, slot = (slot + 1) & mask) {
      if (probes === slots.length) throw new Error('The decision index table has no free slot');
    }
    slots[slot] = entry + 1;
  }

  function grow(): void {
    capacity *= 2;
    const widen = (array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const wider = new Int32Array(capacity);
      wider.set(array);
      return wider;
    };
    keyStart = widen(keyStart);
    keyLength = widen(keyLength);
    valueStart = widen(valueStart);
    valueLength = widen(valueLength);
    hashes = widen(hashes);
    slots = new Int32Array(capacity * 2);
    for (let entry = 0; entry < count; entry += 1) place(entry);
  }

  function storeValue(entry: number, value: string): void {
    const shared = sharedValues.get(value);
    const bytes = Buffer.byteLength(value, 'utf8');
    let start: number;
    if (shared !== undefined) start = shared;
    else {
      start = reserve(bytes);
      arena.write(value, start, bytes, 'utf8');
      if (sharedValues.size >= SHARED_VALUES) sharedValues.clear();
      sharedValues.set(value, start);
    }
    valueStart[entry] = start;
    valueLength[entry] = bytes;
  }

  return {
    set(key, value) {
      const hash = hashOf(key);
      const bytes = Buffer.byteLength(key, 'utf8');
      const existing = find(key, hash, bytes);
      if (existing >= 0) {
        storeValue(existing, value);
        return;
      }
      if (count === capacity) grow();
      const entry = count;
      // The key's bytes are still in scratch from find.
      const start = reserve(bytes);
      scratch.copy(arena, start, 0, bytes);
      keyStart[entry] = start;
      keyLength[entry] = bytes;
      hashes[entry] = hash;
      storeValue(entry, value);
      count += 1;
      place(entry);
    },
    get(key) {
      const bytes = Buffer.byteLength(key, 'utf8');
      const entry = find(key, hashOf(key), bytes);
      return entry < 0 ? undefined : arena.toString('utf8', valueStart[entry]!, valueStart[entry]! + valueLength[entry]!);
    },
    get size() {
      return count;
    },
  };
}
