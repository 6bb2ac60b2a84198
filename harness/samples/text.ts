// Text samples. Each states a fact a decision could be asked about, so later suites can check that
// a server read the asset, and each contains non-ASCII characters so UTF-8 handling is exercised.
import { utf8 } from './bytes.ts';

export const plainTextSample = 'Invoice 2031 from Café Nord is due on 14 March. The amount is 420 euros.\n';

export const markdownSample = '# Invoice 2031\n\n- Supplier: **Café Nord**\n- Due: 14 March\n- Amount: 420 euros\n';

export const htmlSample =
  '<!DOCTYPE html>\n<html><head><title>Invoice 2031</title><style>p { color: red; }</style>' +
  '<script>var hidden = "not part of the text";</script></head>\n' +
  '<body><h1>Invoice 2031</h1><p>Supplier: Caf&eacute; Nord &amp; Sons</p><p>Due on 14&nbsp;March; amount 420&#160;€.</p></body></html>\n';

export function textBytes(text: string): Uint8Array {
  return utf8(text);
}

/** Plain text of exactly `totalBytes` bytes (ASCII lines), for size-limit cases. */
export function plainTextOfSize(totalBytes: number): Uint8Array {
  const line = utf8('The quick brown fox jumps over the lazy dog.\n');
  const out = new Uint8Array(totalBytes);
  // The line over and over, the last one cut: Buffer's fill repeats a pattern natively.
  Buffer.from(out.buffer).fill(line);
  return out;
}
