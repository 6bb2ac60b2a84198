// Rule family schema constraints: corpus pairs made from the kit's spec, both directions.
import { schemaConstraintFamily } from '../rules/schema-constraints.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('schema constraints', casesFor(schemaConstraintFamily.rules));
