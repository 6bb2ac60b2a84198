// Which contract-form schema a response of each operation the load scenarios send must meet,
// by status: spec/validators.ts responseSchemaFor, read once for every status into ranges. In
// load/definitions/response-rules.js this module is replaced by the table it computes, so k6
// needs no spec at run time.
import { responseSchemaFor } from '../../spec/index.ts';
import type { ResponseSchemaTable } from './judge.ts';

/** The operations the load scenarios send (load/definitions/*.js). */
export const LOAD_OPERATIONS = ['decide', 'uploadAsset', 'submitFeedback', 'listModels', 'getHealth'] as const;

export function responseSchemaTable(): ResponseSchemaTable {
  const table: ResponseSchemaTable = {};
  for (const operationId of LOAD_OPERATIONS) {
    const ranges: Array<[number, number, string]> = [];
    for (let status = 100; status <= 599; status++) {
      const name = responseSchemaFor(operationId, status, 'contract')?.schemaName;
      const last = ranges[ranges.length - 1];
      if (name === undefined) continue;
      if (last && last[2] === name && last[1] === status - 1) last[1] = status;
      else ranges.push([status, status, name]);
    }
    table[operationId] = ranges;
  }
  return table;
}

export const responseSchemas: ResponseSchemaTable = responseSchemaTable();

/** The schema names the table refers to: the only validators the bundle carries. */
export function tableSchemaNames(table: ResponseSchemaTable): string[] {
  return [...new Set(Object.values(table).flatMap((ranges) => ranges.map(([, , name]) => name)))].sort();
}
