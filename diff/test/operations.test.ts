// Rule families paths, operations and security schemes: corpus pairs made from the kit's spec, both directions.
import { operationFamily, pathFamily, securitySchemeFamily } from '../rules/operations.ts';
import { casesFor } from './corpus/all.ts';
import { runCorpus } from './corpus/run.ts';

runCorpus('operations', casesFor([pathFamily, operationFamily, securitySchemeFamily].flatMap((family) => family.rules)));
