// Rule family schema values: corpus pairs made from the kit's spec, both directions.
import { schemaValueFamily } from '../rules/schema-values.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('schema values', casesFor(schemaValueFamily.rules));
