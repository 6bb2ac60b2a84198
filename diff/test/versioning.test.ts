// Rule family versioning: corpus pairs made from the kit's spec, both directions.
import { versioningFamily } from '../rules/versioning.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('versioning', casesFor(versioningFamily.rules));
