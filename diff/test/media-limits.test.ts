// Rule family media limits: corpus pairs made from the kit's spec, both directions.
import { mediaLimitFamily } from '../rules/media-limits.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('media limits', casesFor(mediaLimitFamily.rules));
