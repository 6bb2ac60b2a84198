// Rule family open points: corpus pairs made from the kit's spec, both directions.
import { openPointFamily } from '../rules/open-points.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('open points', casesFor(openPointFamily.rules));
