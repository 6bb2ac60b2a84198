// Packs one or more requests (each a context vector and its rows of probe cells from layout.ts)
// into the flat typed arrays the model takes, so that they are scored in a single session run.
// Each request keeps its own rows; model.ts explains how a probe meets its own request's context.
import { BUCKET_COUNT, featureVector, type Polarity, type SparseVector } from './features.ts';
import type { ProbeCell } from './layout.ts';

export interface ScoringRequest {
  readonly context: SparseVector;
  readonly rows: readonly (readonly ProbeCell[])[];
}

export interface ScoringBatch {
  /** Every request's context weights, concatenated, then one 0. */
  readonly contextWeights: Float32Array;
  /** Position in contextWeights of the context feature with the probe feature's bucket, or of the final 0. */
  readonly probeIds: Int32Array;
  readonly probeWeights: Float32Array;
  /** Flat grid index (row * width + cell) of each probe feature. */
  readonly probeCells: Int32Array;
  /** Per cell, the L2 norm of its probe times the L2 norm of its request's context; 0 for padding. */
  readonly normProducts: Float32Array;
  readonly cellOffsets: Float32Array;
  /** 0 for a real cell, -Infinity for the padding that evens out rows of different lengths. */
  readonly cellPadding: Float32Array;
  readonly groups: number;
  readonly width: number;
  readonly scale: number;
  /** Index of the first row of each request. */
  readonly firstRows: readonly number[];
}

/** Where probe vectors come from: hashed afresh by default, or through a ProbeVectorCache. */
export type ProbeVectors = (text: string, polarity: Polarity) => SparseVector;

/**
 * Bucket → 1 + position of that bucket in the current request's context, 0 when absent. Filled
 * for one request at a time and cleared after it: synchronous use only.
 */
let positionOfBucket: Int32Array | undefined;

/** L2 norm of a vector's weights, summed in float64. */
function norm(weights: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i += 1) sum += weights[i]! * weights[i]!;
  return Math.sqrt(sum);
}

export function packRequests(requests: readonly ScoringRequest[], temperature: number, probeVectors: ProbeVectors = featureVector): ScoringBatch {
  const groups = requests.reduce((total, request) => total + request.rows.length, 0);
  const width = Math.max(0, ...requests.flatMap((request) => request.rows.map((cells) => cells.length)));
  if (requests.some((request) => request.rows.length === 0) || width === 0) throw new Error('A scoring batch needs at least one row with one cell per request');

  const probes = requests.map((request) => request.rows.map((cells) => cells.map((cell) => probeVectors(cell.text, cell.polarity))));
  const contextFeatures = requests.reduce((total, request) => total + request.context.ids.length, 0);
  const probeFeatures = probes.reduce(
    (total, rows) => total + rows.reduce((sum, row) => sum + row.reduce((cells, probe) => cells + probe.ids.length, 0), 0),
    0,
  );
  // The final element stays 0: the weight of every bucket a context lacks.
  const contextWeights = new Float32Array(contextFeatures + 1);
  const probeIds = new Int32Array(probeFeatures);
  const probeWeights = new Float32Array(probeFeatures);
  const probeCells = new Int32Array(probeFeatures);
  const normProducts = new Float32Array(groups * width);
  const cellOffsets = new Float32Array(groups * width);
  const cellPadding = new Float32Array(groups * width).fill(Number.NEGATIVE_INFINITY);
  const firstRows: number[] = [];

  positionOfBucket ??= new Int32Array(BUCKET_COUNT);
  const positions = positionOfBucket;
  let contextAt = 0;
  let probeAt = 0;
  let row = 0;
  requests.forEach((request, requestIndex) => {
    const { ids, weights } = request.context;
    contextWeights.set(weights, contextAt);
    for (let i = 0; i < ids.length; i += 1) positions[ids[i]!] = contextAt + i + 1;
    const contextNorm = norm(weights);

    firstRows.push(row);
    request.rows.forEach((cells, rowInRequest) => {
      cells.forEach((cell, column) => {
        const flat = row * width + column;
        const probe = probes[requestIndex]![rowInRequest]![column]!;
        for (let i = 0; i < probe.ids.length; i += 1) {
          const position = positions[probe.ids[i]!]!;
          probeIds[probeAt + i] = position === 0 ? contextFeatures : position - 1;
        }
        probeWeights.set(probe.weights, probeAt);
        probeCells.fill(flat, probeAt, probeAt + probe.ids.length);
        probeAt += probe.ids.length;
        normProducts[flat] = norm(probe.weights) * contextNorm;
        cellOffsets[flat] = cell.offset;
        cellPadding[flat] = 0;
      });
      row += 1;
    });

    for (let i = 0; i < ids.length; i += 1) positions[ids[i]!] = 0;
    contextAt += ids.length;
  });

  return { contextWeights, probeIds, probeWeights, probeCells, normProducts, cellOffsets, cellPadding, groups, width, scale: 1 / temperature, firstRows };
}

/** One request alone. */
export function packBatch(
  context: SparseVector,
  rows: readonly (readonly ProbeCell[])[],
  temperature: number,
  probeVectors: ProbeVectors = featureVector,
): ScoringBatch {
  return packRequests([{ context, rows }], temperature, probeVectors);
}
