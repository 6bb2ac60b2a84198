// Rule family schema properties: corpus pairs made from the kit's spec, both directions.
import { schemaPropertyFamily } from '../rules/schema-properties.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('schema properties', casesFor(schemaPropertyFamily.rules));
