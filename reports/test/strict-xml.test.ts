import { describe, expect, it } from 'vitest';
import { elementsNamed, parseXmlStrict, XmlSyntaxError } from './strict-xml.ts';

// The JUnit tests lean on this reader: it must refuse what an XML parser refuses.
describe('the strict XML reader the JUnit tests use', () => {
  it('reads a well-formed document into a tree, decoding references', () => {
    const root = parseXmlStrict(
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- c --><a x="1 &amp; 2&#10;" y=\'&quot;\'><b/>t&lt;&#x41;<![CDATA[<raw>]]><b></b></a>\n',
    );
    expect(root.name).toBe('a');
    expect(root.attributes).toEqual({ x: '1 & 2\n', y: '"' });
    expect(root.text).toBe('t<A<raw>');
    expect(elementsNamed(root, 'b')).toHaveLength(2);
  });

  it.each([
    ['an unclosed element', '<a><b></a>'],
    ['misnested elements', '<a><b></a></b>'],
    ['two roots', '<a/><b/>'],
    ['an unquoted attribute', '<a x=1/>'],
    ['a duplicate attribute', '<a x="1" x="2"/>'],
    ['attributes without whitespace between them', '<a x="1"y="2"/>'],
    ['< inside an attribute value', '<a x="<"/>'],
    ['a bare ampersand', '<a>fish & chips</a>'],
    ['an unknown entity', '<a>&nbsp;</a>'],
    ['a raw < in text', '<a>1 < 2</a>'],
    ['a NUL character', '<a>\u0000</a>'],
    ['an escape character', '<a>\u001b[31m</a>'],
    ['a character reference to a control character', '<a>&#1;</a>'],
    ['an unpaired surrogate', '<a>\ud800</a>'],
    [']]> in text', '<a>]]></a>'],
    ['-- inside a comment', '<a><!-- a -- b --></a>'],
    ['an XML declaration after the start', ' <?xml version="1.0"?><a/>'],
    ['text after the root', '<a/>tail'],
    ['text ending in > after the root', '<a></a>tail>'],
    ['a DOCTYPE', '<?xml version="1.0"?>\n<!DOCTYPE a><a/>'],
    ['a malformed XML declaration', '<?xml encoding="UTF-8"?><a/>'],
    ['a bare ampersand in an attribute value', '<a x="fish & chips"/>'],
  ])('refuses %s', (_, source) => {
    expect(() => parseXmlStrict(source)).toThrow(XmlSyntaxError);
  });
});
