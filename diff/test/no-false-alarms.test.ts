// Renames and changes that admit the same values: no breaking finding either way.
import { quietCases } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('changes that are no change to clients', quietCases);
