// Text into XML, HTML, Markdown and the terminal. Reports and the command line carry whatever a
// server sent back, so every string that reaches markup or a terminal is treated as hostile.

/**
 * Characters no report may carry: C0 controls other than tab, line feed and carriage return,
 * DEL and the C1 controls, unpaired surrogates, and the non-characters U+FFFE and U+FFFF.
 * XML 1.0 forbids most of them outright; HTML parses them as errors; terminals act on them.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * What a terminal must not be handed raw: UNPRINTABLE and the carriage return, which a report may
 * keep (markup reads it as a line break) but which on a terminal returns to the start of the line
 * and lets what follows overwrite it. Tab and line feed stay.
 */
const TERMINAL_UNSAFE = new RegExp(`${UNPRINTABLE.source}|\\r`, 'g');

/**
 * Text that came from a server (or from a file a server's answers went into), as a terminal may
 * show it: every character of TERMINAL_UNSAFE written out as a visible `\uXXXX` escape (ESC as
 * `\u001b`, CR as `\u000d`, a lone surrogate as `\ud800`), so that none can retitle the
 * terminal, clear it, move the cursor or rewrite an earlier line. Apply it to the server's text
 * before the command line adds its own colour codes, never to a whole painted line.
 */
export function terminalText(text: string): string {
  return text.replace(TERMINAL_UNSAFE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function stripUnprintable(text: string): string {
  return text.replace(UNPRINTABLE, '');
}

/**
 * XML character data: unprintable characters stripped, markup characters escaped. A carriage
 * return becomes a character reference: the same character to an XML reader, and no raw CR for a
 * terminal that shows the file to rewrite a line with.
 */
export function xmlText(text: string): string {
  return stripUnprintable(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/**
 * An XML attribute value (for double quotes). Tab, CR and LF become character references, so
 * attribute-value normalisation keeps a multi-line message multi-line.
 */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/**
 * HTML text or attribute value. Unprintable characters become U+FFFD, so that a reader of an
 * evidence excerpt sees that the server sent something there.
 */
export function html(text: string | number): string {
  return String(text)
    .replace(UNPRINTABLE, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\r/g, '&#13;');
}

/**
 * One line of inline Markdown: line breaks folded into spaces, and the punctuation that could
 * start emphasis, code, links, tables, strikethrough, entities or raw HTML backslash-escaped
 * (CommonMark reads a backslash before ASCII punctuation as that character, literally). Link
 * and image syntax cannot form once brackets are escaped; block syntax cannot start mid-line.
 */
export function markdownInline(text: string): string {
  return stripUnprintable(text)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>|~&]/g, (character) => `\\${character}`);
}

/** A Markdown code span that holds any text: the fence is one backtick longer than the longest run inside. */
export function markdownCode(text: string): string {
  const content = stripUnprintable(text).replace(/\s+/g, ' ');
  const longestRun = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const padding = content.startsWith('`') || content.endsWith('`') ? ' ' : '';
  return `${fence}${padding}${content}${padding}${fence}`;
}
