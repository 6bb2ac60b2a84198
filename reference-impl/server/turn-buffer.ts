// Collects the text written during one turn of the event loop and hands it on in one piece at the
// end of that turn (setImmediate: after the turn's responses went out). Under load, one write
// then carries the log lines or records of many requests instead of one write each.

export interface TurnBuffer {
  add(text: string): void;
  /** Hands on what is waiting now, synchronously: before a close or an exit. */
  flush(): void;
}

export function turnBuffer(sink: (text: string) => void): TurnBuffer {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    sink(text);
  };
  return {
    add(text) {
      pending.push(text);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
