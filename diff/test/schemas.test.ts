// Schema rule families (values, constraints, properties, composition) on pairs made from the kit's spec.
import { runCorpus } from './corpus/run.ts';
import { noOpCases, schemaCases } from './corpus/schemas.ts';

runCorpus('schema rules', schemaCases);
runCorpus('changes that are no change to clients', noOpCases);
