// Collects log lines and records and hands them on in one piece, at most WRITE_INTERVAL_MS after
// the first of them (or sooner, once MAX_BUFFERED_CHARS wait). A write is a system call, and the
// decision log's goes through libuv's thread pool, which wakes another thread: on a busy server
// one write per request, or even one per event-loop turn, was a tenth of the main thread's time.
// Under load one write now carries the lines of hundreds of requests.
//
// What waits here is handed on by flush(): on close and on exit (serve.ts, decision-log.ts), so a
// clean shutdown loses nothing; a process killed outright loses at most the last interval's lines.

/** Long enough to gather many requests under load, short enough that a tail -f feels live. */
export const WRITE_INTERVAL_MS = 25;
const MAX_BUFFERED_CHARS = 256 * 1024;

export interface WriteBuffer {
  add(text: string): void;
  /** Hands on what is waiting now, synchronously: before a close or an exit. */
  flush(): void;
}

export function writeBuffer(sink: (text: string) => void, intervalMs = WRITE_INTERVAL_MS): WriteBuffer {
  let pending: string[] = [];
  let pendingChars = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    pendingChars = 0;
    sink(text);
  };
  return {
    add(text) {
      pending.push(text);
      pendingChars += text.length;
      if (pendingChars >= MAX_BUFFERED_CHARS) return flush();
      if (!timer) {
        timer = setTimeout(flush, intervalMs);
        // Pending text never keeps a process alive: whoever ends it flushes first.
        timer.unref();
      }
    },
    flush,
  };
}
