// Rule family responses: corpus pairs made from the kit's spec, both directions.
import { responseFamily } from '../rules/responses.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('responses', casesFor(responseFamily.rules));
