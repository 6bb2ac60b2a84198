// Packs one request (the context's vector and the rows of probe cells from layout.ts) into the
// flat typed arrays the model takes, so the whole request is scored in a single session run.
import { featureVector, type Polarity, type SparseVector } from './features.ts';
import type { ProbeCell } from './layout.ts';

export interface ScoringBatch {
  readonly contextIds: Int32Array;
  readonly contextWeights: Float32Array;
  readonly probeIds: Int32Array;
  readonly probeWeights: Float32Array;
  /** Flat grid index (row * width + cell) of each probe feature. */
  readonly probeCells: Int32Array;
  readonly cellOffsets: Float32Array;
  /** 0 for a real cell, -Infinity for the padding that evens out rows of different lengths. */
  readonly cellPadding: Float32Array;
  readonly groups: number;
  readonly width: number;
  readonly scale: number;
}

/** Where probe vectors come from: hashed afresh by default, or through a ProbeVectorCache. */
export type ProbeVectors = (text: string, polarity: Polarity) => SparseVector;

export function packBatch(
  context: SparseVector,
  rows: readonly (readonly ProbeCell[])[],
  temperature: number,
  probeVectors: ProbeVectors = featureVector,
): ScoringBatch {
  const groups = rows.length;
  const width = Math.max(...rows.map((cells) => cells.length));
  if (groups === 0 || width === 0) throw new Error('A scoring batch needs at least one row with one cell');

  const probes = rows.map((cells) => cells.map((cell) => probeVectors(cell.text, cell.polarity)));
  const probeFeatures = probes.reduce((total, row) => total + row.reduce((sum, probe) => sum + probe.ids.length, 0), 0);
  const probeIds = new Int32Array(probeFeatures);
  const probeWeights = new Float32Array(probeFeatures);
  const probeCells = new Int32Array(probeFeatures);
  const cellOffsets = new Float32Array(groups * width);
  const cellPadding = new Float32Array(groups * width).fill(Number.NEGATIVE_INFINITY);

  let at = 0;
  rows.forEach((cells, row) => {
    cells.forEach((cell, column) => {
      const flat = row * width + column;
      const probe = probes[row]![column]!;
      probeIds.set(probe.ids, at);
      probeWeights.set(probe.weights, at);
      probeCells.fill(flat, at, at + probe.ids.length);
      at += probe.ids.length;
      cellOffsets[flat] = cell.offset;
      cellPadding[flat] = 0;
    });
  });

  return {
    contextIds: context.ids,
    contextWeights: context.weights,
    probeIds,
    probeWeights,
    probeCells,
    cellOffsets,
    cellPadding,
    groups,
    width,
    scale: 1 / temperature,
  };
}
