// Rule family request body: corpus pairs made from the kit's spec, both directions.
import { requestBodyFamily } from '../rules/request-body.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('request body', casesFor(requestBodyFamily.rules));
