// Rule family seed limits: corpus pairs made from the kit's spec, both directions.
import { seedLimitFamily } from '../rules/seed-limits.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('seed limits', casesFor(seedLimitFamily.rules));
