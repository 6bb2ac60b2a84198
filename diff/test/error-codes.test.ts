// Rule family error codes: corpus pairs made from the kit's spec, both directions.
import { errorCodeFamily } from '../rules/error-codes.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('error codes', casesFor(errorCodeFamily.rules));
