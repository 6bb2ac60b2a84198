// Rule family operations: corpus pairs made from the kit's spec, both directions.
import { operationRules } from '../rules/operations.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('operations', casesFor(operationRules));
