// Decides, where it honestly can, whether a new `pattern` admits more or fewer strings than the
// old one. Both patterns are parsed into a small tree (alternatives of sequences of quantified
// atoms: characters, character classes, groups, anchors); a direction is decided only when the
// two trees have the same shape and differ in quantifier bounds, character classes, added or
// removed alternatives, or the ^ / $ anchors around the whole pattern. Every construct the tree
// does not model (lookarounds, backreferences, word boundaries, unicode properties) leaves the
// direction undecided, and so does any other difference of shape.

/** Code point ranges, sorted and disjoint: the characters a class (or a single character) admits. */
type Ranges = Array<[number, number]>;

type Atom = { kind: 'chars'; ranges: Ranges } | { kind: 'group'; alternatives: Sequence[] } | { kind: 'anchor'; which: '^' | '$' };

interface Item {
  atom: Atom;
  min: number;
  max: number;
}

type Sequence = Item[];

/** same: the same strings; wider: every string the old pattern admitted and maybe more; narrower: the reverse. */
export type PatternDirection = 'same' | 'wider' | 'narrower';

const MAX_CODE_POINT = 0x10ffff;

class Unsupported extends Error {}

function normalize(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: Ranges = [];
  for (const [lo, hi] of sorted) {
    const last = merged.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

function complement(ranges: Ranges): Ranges {
  const result: Ranges = [];
  let next = 0;
  for (const [lo, hi] of normalize(ranges)) {
    if (lo > next) result.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

const single = (char: string): Ranges => [[char.codePointAt(0)!, char.codePointAt(0)!]];
const DIGITS: Ranges = [[0x30, 0x39]];
const WORD: Ranges = normalize([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
// ECMAScript's \s: WhiteSpace and LineTerminator.
const SPACE: Ranges = normalize([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
const LINE_TERMINATORS: Ranges = normalize([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);

const CLASS_ESCAPES: Record<string, Ranges> = { d: DIGITS, D: complement(DIGITS), w: WORD, W: complement(WORD), s: SPACE, S: complement(SPACE) };
const CONTROL_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', v: '\v', f: '\f' };

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Sequence[] {
    const alternatives = this.alternatives();
    if (this.at < this.source.length) throw new Unsupported(`unexpected ${this.source[this.at]}`);
    return alternatives;
  }

  private peek(): string | undefined {
    return this.source[this.at];
  }

  private alternatives(): Sequence[] {
    const list = [this.sequence()];
    while (this.peek() === '|') {
      this.at++;
      list.push(this.sequence());
    }
    return list;
  }

  private sequence(): Sequence {
    const items: Sequence = [];
    while (this.at < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      const [min, max] = this.quantifier();
      if (atom.kind === 'anchor' && (min !== 1 || max !== 1)) throw new Unsupported('quantified anchor');
      items.push({ atom, min, max });
    }
    return items;
  }

  private atom(): Atom {
    const char = this.source[this.at++]!;
    if (char === '^' || char === '$') return { kind: 'anchor', which: char };
    if (char === '.') return { kind: 'chars', ranges: complement(LINE_TERMINATORS) };
    if (char === '[') return { kind: 'chars', ranges: this.characterClass() };
    if (char === '(') {
      if (this.peek() === '?') {
        // Only non-capturing and named groups: lookarounds change what a pattern means in ways this tree does not model.
        if (this.source.startsWith('?:', this.at)) this.at += 2;
        else if (/^\?<[A-Za-z_$][\w$]*>/.test(this.source.slice(this.at))) this.at = this.source.indexOf('>', this.at) + 1;
        else throw new Unsupported('lookaround');
      }
      const alternatives = this.alternatives();
      if (this.source[this.at++] !== ')') throw new Unsupported('unclosed group');
      return { kind: 'group', alternatives };
    }
    if (char === '\\') return { kind: 'chars', ranges: this.escape(false) };
    if ('*+?{})]|'.includes(char)) throw new Unsupported(`bare ${char}`);
    return { kind: 'chars', ranges: single(String.fromCodePoint(this.source.codePointAt(this.at - 1)!)) };
  }

  private quantifier(): [number, number] {
    const char = this.peek();
    let bounds: [number, number] | undefined;
    if (char === '*') bounds = [0, Infinity];
    else if (char === '+') bounds = [1, Infinity];
    else if (char === '?') bounds = [0, 1];
    if (bounds) this.at++;
    else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (!match) throw new Unsupported('malformed quantifier');
      this.at += match[0].length;
      const min = Number(match[1]);
      bounds = [min, match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3])];
    } else return [1, 1];
    // A lazy quantifier matches the same strings; the pattern is only tested, never extracted.
    if (this.peek() === '?') this.at++;
    return bounds;
  }

  /** After a backslash: a class escape, a control or code point escape, or an escaped literal. */
  private escape(inClass: boolean): Ranges {
    const char = this.source[this.at++];
    if (char === undefined) throw new Unsupported('trailing backslash');
    if (char in CLASS_ESCAPES) return CLASS_ESCAPES[char]!;
    if (char in CONTROL_ESCAPES) return single(CONTROL_ESCAPES[char]!);
    if (char === 'u' || char === 'x') {
      const match = (char === 'u' ? /^(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))/ : /^([0-9a-fA-F]{2})/).exec(this.source.slice(this.at));
      if (!match) throw new Unsupported('malformed code point escape');
      this.at += match[0].length;
      const code = Number.parseInt(match[1] ?? match[2]!, 16);
      return [[code, code]];
    }
    if (char === '0' && !/\d/.test(this.peek() ?? '')) return [[0, 0]];
    if (char === 'b' && inClass) return single('\b');
    // \b \B (boundaries), \1 \k<name> (backreferences), \p{...} (properties), \c (controls): not modelled.
    if (/[A-Za-z0-9]/.test(char)) throw new Unsupported(`escape \\${char}`);
    return single(char);
  }

  private characterClass(): Ranges {
    const negated = this.peek() === '^';
    if (negated) this.at++;
    const ranges: Ranges = [];
    const member = (): Ranges => {
      const char = this.source[this.at++];
      if (char === undefined) throw new Unsupported('unclosed class');
      if (char === '\\') return this.escape(true);
      if (char === '[') throw new Unsupported('nested class');
      return single(String.fromCodePoint(this.source.codePointAt(this.at - 1)!));
    };
    while (this.peek() !== ']') {
      if (this.peek() === undefined) throw new Unsupported('unclosed class');
      const low = member();
      if (this.peek() === '-' && this.source[this.at + 1] !== ']' && this.source[this.at + 1] !== undefined) {
        this.at++;
        const high = member();
        if (low.length !== 1 || high.length !== 1 || low[0]![0] !== low[0]![1] || high[0]![0] !== high[0]![1]) throw new Unsupported('class range of classes');
        if (low[0]![0] > high[0]![0]) throw new Unsupported('reversed range');
        ranges.push([low[0]![0], high[0]![0]]);
      } else ranges.push(...low);
    }
    this.at++;
    return negated ? complement(ranges) : normalize(ranges);
  }
}

function parse(pattern: string): Sequence[] | undefined {
  try {
    return new Parser(pattern).parse();
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

type Verdict = PatternDirection | undefined;

/** Both parts must agree: one wider and one narrower part cancel out into undecided. */
function combine(a: Verdict, b: Verdict): Verdict {
  if (a === undefined || b === undefined) return undefined;
  if (a === 'same') return b;
  if (b === 'same' || a === b) return a;
  return undefined;
}

function contains(outer: Ranges, inner: Ranges): boolean {
  return inner.every(([lo, hi]) => outer.some(([from, to]) => from <= lo && hi <= to));
}

function compareRanges(old: Ranges, next: Ranges): Verdict {
  const wider = contains(next, old);
  const narrower = contains(old, next);
  if (wider && narrower) return 'same';
  return wider ? 'wider' : narrower ? 'narrower' : undefined;
}

function compareBounds(old: Item, next: Item): Verdict {
  if (old.min === next.min && old.max === next.max) return 'same';
  if (next.min <= old.min && next.max >= old.max) return 'wider';
  if (next.min >= old.min && next.max <= old.max) return 'narrower';
  return undefined;
}

function compareAtoms(old: Atom, next: Atom): Verdict {
  if (old.kind === 'chars' && next.kind === 'chars') return compareRanges(old.ranges, next.ranges);
  if (old.kind === 'group' && next.kind === 'group') return compareAlternatives(old.alternatives, next.alternatives);
  if (old.kind === 'anchor' && next.kind === 'anchor') return old.which === next.which ? 'same' : undefined;
  return undefined;
}

// Concatenation and repetition are monotone: if every part of the new sequence admits at least
// what the old part did, so does the whole.
function compareSequences(old: Sequence, next: Sequence): Verdict {
  if (old.length !== next.length) return undefined;
  let verdict: Verdict = 'same';
  for (let i = 0; i < old.length && verdict !== undefined; i++) {
    verdict = combine(verdict, combine(compareAtoms(old[i]!.atom, next[i]!.atom), compareBounds(old[i]!, next[i]!)));
  }
  return verdict;
}

const sameSequence = (a: Sequence, b: Sequence) => compareSequences(a, b) === 'same';

/** Alternatives paired by position, or one list holding every alternative of the other and more. */
function compareAlternatives(old: Sequence[], next: Sequence[]): Verdict {
  if (old.length === next.length) {
    let verdict: Verdict = 'same';
    for (let i = 0; i < old.length && verdict !== undefined; i++) verdict = combine(verdict, compareSequences(old[i]!, next[i]!));
    if (verdict !== undefined) return verdict;
  }
  const kept = old.every((was) => next.some((now) => sameSequence(was, now)));
  const onlyKept = next.every((now) => old.some((was) => sameSequence(was, now)));
  if (kept && onlyKept) return 'same';
  if (kept) return 'wider';
  if (onlyKept) return 'narrower';
  return undefined;
}

/** ^ at the start and $ at the end of a pattern that is one sequence; the body in between. */
function anchorsOf(alternatives: Sequence[]): { start: boolean; end: boolean; body: Sequence[] } {
  if (alternatives.length !== 1) return { start: false, end: false, body: alternatives };
  let items = alternatives[0]!;
  const start = items[0]?.atom.kind === 'anchor' && items[0].atom.which === '^';
  if (start) items = items.slice(1);
  const end = items.at(-1)?.atom.kind === 'anchor' && (items.at(-1)!.atom as { which: string }).which === '$';
  if (end) items = items.slice(0, -1);
  return { start, end, body: [items] };
}

/** An anchor removed lets the match start (or end) anywhere: the pattern admits more strings. */
function compareAnchor(old: boolean, next: boolean): Verdict {
  if (old === next) return 'same';
  return old ? 'wider' : 'narrower';
}

/**
 * Whether `next` admits the same strings as `old`, more (wider), fewer (narrower), or
 * undefined when that cannot be decided from the two patterns' shapes.
 */
export function comparePatterns(old: string, next: string): PatternDirection | undefined {
  if (old === next) return 'same';
  const before = parse(old);
  const after = parse(next);
  if (!before || !after) return undefined;
  const was = anchorsOf(before);
  const now = anchorsOf(after);
  return combine(combine(compareAnchor(was.start, now.start), compareAnchor(was.end, now.end)), compareAlternatives(was.body, now.body));
}
