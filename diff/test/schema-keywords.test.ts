// Rule family schema keywords (the fallback): corpus pairs made from the kit's spec, both directions.
import { schemaKeywordFamily } from '../rules/schema-keywords.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('schema keywords', casesFor(schemaKeywordFamily.rules));
