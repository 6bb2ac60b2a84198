// The readable text of an HTML document: what a person would read in a browser, roughly. Scripts,
// styles and other non-rendered elements are dropped, tags removed, block elements become line
// breaks, and character references are decoded as HTML decodes them in text: all 2,231 named
// ones, the legacy ones a browser also reads without a semicolon (`&amp`, `&copy`), and numeric
// ones with HTML's replacements (`&#128;` is €, `&#0;` and surrogates are U+FFFD). The decoding
// is the `entities` package's (the decoder of htmlparser2), after the tags are gone, so an
// escaped `&lt;p&gt;` stays text.
import { decodeHTML } from 'entities';

// Elements whose content is never rendered as text.
const hiddenElements = ['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object'];

const blockElements =
  'address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|title|tr|ul';

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
    .replace(/<[^<>]*>/g, '');
  return decodeHTML(text)
    .split('\n')
    .map((line) => line.replace(/[ \t\f\r\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}
