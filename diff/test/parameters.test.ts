// Rule family parameters: corpus pairs made from the kit's spec, both directions.
import { parameterFamily } from '../rules/parameters.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('parameters', casesFor(parameterFamily.rules));
