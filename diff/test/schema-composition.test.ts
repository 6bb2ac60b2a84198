// Rule family schema composition: corpus pairs made from the kit's spec, both directions.
import { schemaCompositionFamily } from '../rules/schema-composition.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('schema composition', casesFor(schemaCompositionFamily.rules));
