// Rule family schema applicators: corpus pairs made from the kit's spec, both directions.
import { schemaApplicatorFamily } from '../rules/schema-applicators.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('schema applicators', casesFor(schemaApplicatorFamily.rules));
