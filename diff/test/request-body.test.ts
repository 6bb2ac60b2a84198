// Rule family request body: corpus pairs made from the kit's spec, both directions.
import { requestBodyRules } from '../rules/request-body.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('request body', casesFor(requestBodyRules));
