// The JSON a property sends, as a value whose objects keep their keys in order and may have any
// key ("__proto__", "1" and look-alikes included). Plain JavaScript objects would move "1" to
// the front and turn "__proto__" into a prototype; the wire form is turned into text by us.

/** A JSON object as an ordered list of entries with distinct keys. */
export class WireObject {
  constructor(readonly entries: ReadonlyArray<readonly [string, WireValue]>) {}

  get keys(): string[] {
    return this.entries.map(([key]) => key);
  }

  has(key: string): boolean {
    return this.entries.some(([name]) => name === key);
  }

  get(key: string): WireValue | undefined {
    return this.entries.find(([name]) => name === key)?.[1];
  }

  /** A copy with `key` set to `value`: replaced in place when present, appended otherwise. */
  with(key: string, value: WireValue): WireObject {
    return this.has(key)
      ? new WireObject(this.entries.map(([name, old]) => [name, name === key ? value : old] as const))
      : new WireObject([...this.entries, [key, value]]);
  }

  /** A copy without `key`. */
  without(key: string): WireObject {
    return new WireObject(this.entries.filter(([name]) => name !== key));
  }
}

export type WireValue = null | boolean | number | string | WireValue[] | WireObject;

export function isWireObject(value: WireValue | undefined): value is WireObject {
  return value instanceof WireObject;
}

export function wireObject(entries: Record<string, WireValue> | ReadonlyArray<readonly [string, WireValue]>): WireObject {
  return new WireObject(Array.isArray(entries) ? entries : Object.entries(entries));
}

/** The JSON text of a wire value, keys in their order. */
export function toJsonText(value: WireValue): string {
  if (value instanceof WireObject) return `{${value.entries.map(([key, child]) => `${JSON.stringify(key)}:${toJsonText(child)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  return JSON.stringify(value);
}

/** A JSON string literal with every character outside printable ASCII escaped, so look-alikes and emoji can be told apart. */
export function escapedString(text: string): string {
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Strings longer than this are shown by their start, their length and their last characters. */
const SHOWN_STRING_CHARS = 120;

function shownString(text: string): string {
  const codePoints = [...text];
  if (codePoints.length <= SHOWN_STRING_CHARS) return escapedString(text);
  const head = codePoints.slice(0, 60).join('');
  const tail = codePoints.slice(-20).join('');
  return `${escapedString(head).slice(0, -1)}…${escapedString(tail).slice(1)} /* ${codePoints.length} characters */`;
}

/**
 * A wire value pretty-printed for a person: indented JSON with non-ASCII characters escaped
 * (\u0430 is Cyrillic, a is Latin) and long strings shortened with their length.
 */
export function showWire(value: WireValue, indent = ''): string {
  const inner = `${indent}  `;
  if (value instanceof WireObject) {
    if (value.entries.length === 0) return '{}';
    return `{\n${value.entries.map(([key, child]) => `${inner}${escapedString(key)}: ${showWire(child, inner)}`).join(',\n')}\n${indent}}`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((child) => `${inner}${showWire(child, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'string') return shownString(value);
  return JSON.stringify(value);
}

/** Size of the UTF-8 text of a wire value, in bytes. */
export function jsonBytes(value: WireValue): number {
  return Buffer.byteLength(toJsonText(value));
}
