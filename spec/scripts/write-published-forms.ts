// Writes the published forms of spec/openapi.yaml, for tools that cannot read it or should not
// judge a server by the reference server's choices:
//   spec/openapi.json            the document as written, in JSON (what GET /openapi.json serves)
//   spec/openapi.contract.json   the contract form: every open-point schema relaxed (contract-form.ts)
//   spec/openapi.contract.yaml   the same, in YAML that YAML 1.1 and 1.2 loaders read alike
// `npm run spec:json` writes them; `--check` exits 1 when a committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { contractDocument } from '../contract-form.ts';
import { openapiDocument } from '../document.ts';

export interface PublishedForm {
  path: string;
  text: string;
}

const specFile = (name: string): string => fileURLToPath(new URL(`../${name}`, import.meta.url));

// JSON has no comments: spec/README.md and .gitattributes say these files are generated.
const asJson = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;

const YAML_HEADER = `# GENERATED FILE: do not edit. Regenerate with \`npm run spec:json\` after changing spec/openapi.yaml.
# The contract form of the Decision Service API: point schema-driven tools here (see info.description).
`;

// version 1.1 makes the writer quote every string a YAML 1.1 loader would read as something else
// (yes, no, on, off, 1:20...); no line folding, so long descriptions stay one plain line.
const asYaml = (document: unknown): string => YAML_HEADER + stringify(document, { version: '1.1', lineWidth: 0 });

export function publishedForms(): PublishedForm[] {
  return [
    { path: specFile('openapi.json'), text: asJson(openapiDocument) },
    { path: specFile('openapi.contract.json'), text: asJson(contractDocument()) },
    { path: specFile('openapi.contract.yaml'), text: asYaml(contractDocument()) },
  ];
}

/** The published files whose committed text differs from what the current spec produces. */
export function staleForms(): string[] {
  return publishedForms()
    .filter(({ path, text }) => {
      try {
        return readFileSync(path, 'utf8') !== text;
      } catch {
        return true;
      }
    })
    .map(({ path }) => path);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const stale = staleForms();
    for (const path of stale) console.error(`${path} is stale: run \`npm run spec:json\`.`);
    if (stale.length > 0) process.exit(1);
    console.log('The published forms of the spec are up to date.');
  } else {
    for (const { path, text } of publishedForms()) {
      writeFileSync(path, text);
      console.log(`Wrote ${path}`);
    }
  }
}
