// yaml-js ships no types. It is a JavaScript port of PyYAML: a YAML 1.1 loader.
declare module 'yaml-js' {
  /** Loads one YAML 1.1 document; throws on what PyYAML's pure-Python loader rejects. */
  export function load(text: string): unknown;
}
