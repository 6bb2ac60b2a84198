// A strict XML 1.0 reader for the tests: it throws on anything that is not well-formed (unbalanced
// or misnested tags, unquoted or duplicate attributes, raw < or & in text, unknown entities,
// characters XML forbids, more than one root) and otherwise returns the element tree, so a
// test can count test cases without a dependency. It reads what the kit writes; DOCTYPEs, which
// the kit never writes, are refused.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own character data (CDATA included), entities decoded. */
  text: string;
}

export class XmlSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = 'XmlSyntaxError';
  }
}

const NAME = /[A-Za-z_:][-A-Za-z0-9._:]*/y;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

export function parseXmlStrict(source: string): XmlElement {
  for (let i = 0; i < source.length; ) {
    const code = source.codePointAt(i)!;
    if (!isXmlChar(code) || (code >= 0xd800 && code <= 0xdfff)) throw new XmlSyntaxError(`character U+${code.toString(16).padStart(4, '0')} is not allowed in XML`, i);
    i += code > 0xffff ? 2 : 1;
  }
  let at = 0;
  const fail = (message: string): never => {
    throw new XmlSyntaxError(message, at);
  };
  const startsWith = (text: string) => source.startsWith(text, at);
  const skipSpace = () => {
    while (at < source.length && ' \t\r\n'.includes(source[at]!)) at++;
  };
  const readName = (): string => {
    NAME.lastIndex = at;
    const match = NAME.exec(source);
    if (!match) fail('expected a name');
    at += match![0].length;
    return match![0];
  };
  const decode = (raw: string, base: number): string =>
    raw.replace(/&([^;]*);|&/g, (whole, body: string | undefined, offset: number) => {
      if (body === undefined) throw new XmlSyntaxError('bare & (not part of a reference)', base + offset);
      if (body in PREDEFINED) return PREDEFINED[body]!;
      const numeric = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(body);
      if (!numeric) throw new XmlSyntaxError(`unknown entity &${body};`, base + offset);
      const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2]!, 10);
      if (!isXmlChar(code)) throw new XmlSyntaxError(`character reference ${whole} names a character XML forbids`, base + offset);
      return String.fromCodePoint(code);
    });
  const skipComment = () => {
    const end = source.indexOf('-->', at + 4);
    if (end < 0) fail('unterminated comment');
    if (source.slice(at + 4, end).includes('--')) fail('-- inside a comment');
    at = end + 3;
  };
  const skipInstruction = () => {
    const end = source.indexOf('?>', at + 2);
    if (end < 0) fail('unterminated processing instruction');
    at = end + 2;
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (startsWith('<!--')) skipComment();
      else if (startsWith('<?')) {
        if (/^<\?xml[\s?]/i.test(source.slice(at, at + 6))) fail('an XML declaration is only allowed at the very start');
        skipInstruction();
      } else return;
    }
  };

  const readElement = (): XmlElement => {
    if (!startsWith('<')) fail('expected <');
    at++;
    const element: XmlElement = { name: readName(), attributes: {}, children: [], text: '' };
    for (;;) {
      const before = at;
      skipSpace();
      if (startsWith('/>')) {
        at += 2;
        return element;
      }
      if (startsWith('>')) {
        at++;
        break;
      }
      if (at === before) fail('expected whitespace before an attribute');
      const attribute = readName();
      if (attribute in element.attributes) fail(`duplicate attribute ${attribute}`);
      skipSpace();
      if (!startsWith('=')) fail(`attribute ${attribute} has no value`);
      at++;
      skipSpace();
      const quote = source[at];
      if (quote !== '"' && quote !== "'") fail(`attribute ${attribute} is not quoted`);
      const end = source.indexOf(quote!, at + 1);
      if (end < 0) fail(`attribute ${attribute} is not terminated`);
      const raw = source.slice(at + 1, end);
      if (raw.includes('<')) fail(`< in the value of attribute ${attribute}`);
      element.attributes[attribute] = decode(raw, at + 1);
      at = end + 1;
    }
    for (;;) {
      if (at >= source.length) fail(`element <${element.name}> is not closed`);
      if (startsWith('</')) {
        at += 2;
        const name = readName();
        if (name !== element.name) fail(`</${name}> closes <${element.name}>`);
        skipSpace();
        if (!startsWith('>')) fail('expected > after the closing tag name');
        at++;
        return element;
      }
      if (startsWith('<!--')) skipComment();
      else if (startsWith('<![CDATA[')) {
        const end = source.indexOf(']]>', at + 9);
        if (end < 0) fail('unterminated CDATA section');
        element.text += source.slice(at + 9, end);
        at = end + 3;
      } else if (startsWith('<?')) skipInstruction();
      else if (startsWith('<!')) fail('declarations are not allowed in content');
      else if (startsWith('<')) element.children.push(readElement());
      else {
        const end = source.indexOf('<', at);
        const raw = source.slice(at, end < 0 ? source.length : end);
        if (raw.includes(']]>')) fail(']]> in character data');
        element.text += decode(raw, at);
        at += raw.length;
      }
    }
  };

  if (/^<\?xml[\s?]/.test(source)) {
    const declaration = /^<\?xml\s+version\s*=\s*(["'])1\.[0-9]+\1(\s+encoding\s*=\s*(["'])[A-Za-z][A-Za-z0-9._-]*\3)?(\s+standalone\s*=\s*(["'])(yes|no)\5)?\s*\?>/.exec(source);
    if (!declaration) fail('malformed XML declaration');
    at = declaration![0].length;
  }
  skipMisc();
  if (startsWith('<!DOCTYPE')) fail('DOCTYPE is not supported');
  const root = readElement();
  skipMisc();
  if (at < source.length) fail('content after the root element');
  return root;
}

/** Every element named `name` under `root` (root included), in document order. */
export function elementsNamed(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (element: XmlElement) => {
    if (element.name === name) found.push(element);
    element.children.forEach(visit);
  };
  visit(root);
  return found;
}
