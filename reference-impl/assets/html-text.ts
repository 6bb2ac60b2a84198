// The readable text of an HTML document: what a person would read in a browser, roughly. Scripts,
// styles and other non-rendered elements are dropped, tags removed, block elements become line
// breaks, and the common character references are decoded.

const namedReferences: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  deg: '°',
  middot: '·',
  bull: '•',
  times: '×',
  divide: '÷',
  eacute: 'é',
  egrave: 'è',
  ecirc: 'ê',
  aacute: 'á',
  agrave: 'à',
  acirc: 'â',
  iacute: 'í',
  oacute: 'ó',
  uacute: 'ú',
  ccedil: 'ç',
  ntilde: 'ñ',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  szlig: 'ß',
};

// Elements whose content is never rendered as text.
const hiddenElements = ['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object'];

const blockElements =
  'address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|title|tr|ul';

function decodeReference(match: string, body: string): string {
  if (body.startsWith('#')) {
    const codePoint = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    const valid = Number.isInteger(codePoint) && codePoint > 0 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff);
    return valid ? String.fromCodePoint(codePoint) : '\uFFFD';
  }
  return namedReferences[body] ?? match;
}

// Tag patterns use [^<>]* rather than [^>]*: with a stray "<" and no ">" the latter rescans to the
// end of the document from every "<", which is quadratic on a 25 MB upload.
export function htmlToText(html: string): string {
  let text = html.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ');
  for (const element of hiddenElements) {
    text = text.replace(new RegExp(`<${element}\\b[^<>]*>[\\s\\S]*?(?:</${element}\\s*>|$)`, 'gi'), ' ');
  }
  text = text
    .replace(/<!doctype[^<>]*>/gi, ' ')
    .replace(new RegExp(`</?(?:${blockElements})\\b[^<>]*>`, 'gi'), '\n')
    .replace(/<[^<>]*>/g, '')
    .replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g, decodeReference);
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\f\r\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}
