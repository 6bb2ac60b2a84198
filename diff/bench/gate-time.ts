// How long the spec-change gate takes: the spec against itself, and against a copy in which every
// component schema changes (objects bounded, strings bounded, enums cut, numbers bounded), so every
// component's findings are decided (witness, shape, inclusion). Prints the median of N rounds.
//   npx tsx diff/bench/gate-time.ts [--rounds 7]
import { openapiDocument, type Json } from '../../spec/index.ts';
import { diffDocuments } from '../diff.ts';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 7;

/** One narrowing per component schema, by what the schema is. */
function changeEveryComponent(doc: any): number {
  let changed = 0;
  for (const schema of Object.values(doc.components.schemas) as any[]) {
    const types = [schema.type].flat();
    if (Array.isArray(schema.enum) && schema.enum.length > 1) schema.enum = schema.enum.slice(0, -1);
    else if (types.includes('object')) schema.maxProperties = Math.min(schema.maxProperties ?? 64, 64) - 1;
    else if (types.includes('string')) schema.maxLength = Math.min(schema.maxLength ?? 1000, 1000) - 1;
    else if (types.includes('number') || types.includes('integer')) schema.maximum = (schema.maximum ?? 1000) - 1;
    else schema.description = `${schema.description ?? ''} (changed)`;
    changed += 1;
  }
  return changed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function time(label: string, old: Json, next: Json): void {
  const times: number[] = [];
  let result = diffDocuments(old as never, next as never);
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    result = diffDocuments(structuredClone(old) as never, structuredClone(next) as never);
    times.push(performance.now() - start);
  }
  const witnesses = result.findings.filter((f) => (f as { witness?: unknown }).witness).length;
  console.log(
    `${label.padEnd(34)} median ${median(times).toFixed(0).padStart(6)} ms over ${rounds} rounds; ${result.counts.breaking} breaking (${witnesses} with a witness), ${result.counts['non-breaking']} non-breaking, ${result.counts.info} info`,
  );
}

const changed = structuredClone(openapiDocument) as any;
const components = changeEveryComponent(changed);
time('spec against itself', openapiDocument, openapiDocument);
time(`every component changed (${components})`, openapiDocument, changed);
