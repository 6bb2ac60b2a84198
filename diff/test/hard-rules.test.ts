// Rule family hard rules: corpus pairs made from the kit's spec, both directions.
import { hardRuleFamily } from '../rules/hard-rules.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('hard rules', casesFor(hardRuleFamily.rules));
