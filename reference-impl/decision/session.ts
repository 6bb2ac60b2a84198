// The onnxruntime-node session that runs the scoring model (model.ts) on a packed batch (batch.ts).
import * as ort from 'onnxruntime-node';
import type { ScoringBatch } from './batch.ts';
import { MODEL_INPUTS, MODEL_OUTPUTS, type ModelOutputName } from './model.ts';

/** The model's three grids, row-major [groups, width], as returned by the session. */
export interface ScoringOutputs {
  readonly groups: number;
  readonly width: number;
  readonly similarity: Float32Array;
  readonly groupProbabilities: Float32Array;
  readonly cellProbabilities: Float32Array;
}

export interface ScoringSession {
  run(batch: ScoringBatch): Promise<ScoringOutputs>;
  release(): Promise<void>;
  /** Completed session runs since the session was opened. */
  readonly runs: number;
}

// One thread each: the server handles requests concurrently on two cores, and a request is far
// too small to gain from intra-op parallelism. Sequential execution also keeps float sums in a
// fixed order, so the same input always gives the same bits.
const SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  executionProviders: ['cpu'],
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  logSeverityLevel: 3,
};

/** Opens a session on model bytes, checking that they have the inputs and outputs batch.ts feeds. */
export async function openScoringSession(modelBytes: Uint8Array): Promise<ScoringSession> {
  const session = await ort.InferenceSession.create(modelBytes, SESSION_OPTIONS);
  const missingInputs = MODEL_INPUTS.filter((name) => !session.inputNames.includes(name));
  const missingOutputs = MODEL_OUTPUTS.filter((name) => !session.outputNames.includes(name));
  if (missingInputs.length > 0 || missingOutputs.length > 0) {
    await session.release();
    throw new Error(`The scoring model lacks inputs [${missingInputs.join(', ')}] or outputs [${missingOutputs.join(', ')}]`);
  }
  let runs = 0;
  return {
    async run(batch) {
      const feeds: Record<string, ort.Tensor> = {
        context_weights: new ort.Tensor('float32', batch.contextWeights, [batch.contextWeights.length]),
        probe_ids: new ort.Tensor('int32', batch.probeIds, [batch.probeIds.length]),
        probe_weights: new ort.Tensor('float32', batch.probeWeights, [batch.probeWeights.length]),
        probe_cells: new ort.Tensor('int32', batch.probeCells, [batch.probeCells.length]),
        norm_products: new ort.Tensor('float32', batch.normProducts, [batch.groups, batch.width]),
        cell_offsets: new ort.Tensor('float32', batch.cellOffsets, [batch.groups, batch.width]),
        cell_padding: new ort.Tensor('float32', batch.cellPadding, [batch.groups, batch.width]),
        scale: new ort.Tensor('float32', Float32Array.of(batch.scale), []),
      };
      const results = await session.run(feeds);
      runs += 1;
      const grid = (name: ModelOutputName): Float32Array => {
        const tensor = results[name];
        const expected = batch.groups * batch.width;
        if (!tensor || !(tensor.data instanceof Float32Array) || tensor.data.length !== expected) {
          throw new Error(`The scoring model returned no float grid of ${expected} values for ${name}`);
        }
        return tensor.data;
      };
      return {
        groups: batch.groups,
        width: batch.width,
        similarity: grid('similarity'),
        groupProbabilities: grid('group_probabilities'),
        cellProbabilities: grid('cell_probabilities'),
      };
    },
    release: () => session.release(),
    get runs() {
      return runs;
    },
  };
}
