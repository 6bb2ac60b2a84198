// Operation rule families (paths, operations, security, parameters, bodies, responses) on pairs made from the kit's spec.
import { runCorpus } from './corpus/run.ts';
import { operationCases } from './corpus/operations.ts';

runCorpus('operation rules', operationCases);
