// The scoring model itself: built deterministically, it computes exactly what model.ts documents
// (cosine, softmax per row, sigmoid per cell), and the engine's answers come from the session run:
// a corrupted model fails to load and a rewired one changes the answers.
import onnxProto from 'onnx-proto';
import type { onnx as OnnxSchema } from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Schemas } from '../../spec/index.ts';
import { packBatch } from '../decision/batch.ts';
import { DEFAULT_TEMPERATURE } from '../decision/calibration.ts';
import { startDecisionEngine } from '../decision/engine.ts';
import { contextVector, featureVector, type SparseVector } from '../decision/features.ts';
import { layoutQuestions } from '../decision/layout.ts';
import { buildDecisionModel, MODEL_INPUTS, MODEL_OPSET, MODEL_OUTPUTS } from '../decision/model.ts';
import { openScoringSession, type ScoringSession } from '../decision/session.ts';

const { onnx } = onnxProto;

const BILLING_CONTEXT = 'I was charged twice for my order and I want a refund of the duplicate payment.';
const TOPIC: Schemas['Questions'] = {
  topic: {
    type: 'choice',
    options: { billing: 'Payments, refunds and invoices', shipping: 'Delivery and tracking', other: '' },
  },
};

/** Cosine of two sparse vectors in float64, as an independent check of the graph. */
function cosine(a: SparseVector, b: SparseVector): number {
  const weightOf = new Map<number, number>();
  a.ids.forEach((id, i) => weightOf.set(id, a.weights[i]!));
  let dot = 0;
  b.ids.forEach((id, i) => {
    dot += (weightOf.get(id) ?? 0) * b.weights[i]!;
  });
  const norm = (v: SparseVector): number => Math.sqrt(v.weights.reduce((sum, w) => sum + w * w, 0));
  const denominator = norm(a) * norm(b);
  return denominator === 0 ? 0 : dot / denominator;
}

function softmax(logits: number[]): number[] {
  const max = Math.max(...logits);
  const exps = logits.map((x) => Math.exp(x - max));
  const total = exps.reduce((sum, x) => sum + x, 0);
  return exps.map((x) => x / total);
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** Decodes the model, lets `rewire` change its graph, and encodes it again. */
function rewiredModel(rewire: (graph: OnnxSchema.IGraphProto) => void): Uint8Array {
  const model = onnx.ModelProto.decode(buildDecisionModel());
  rewire(model.graph!);
  return onnx.ModelProto.encode(model).finish();
}

describe('building the model', () => {
  test('two builds give identical bytes', () => {
    const first = buildDecisionModel();
    const second = buildDecisionModel();
    expect(first.length).toBeGreaterThan(500);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
  });

  test('the model declares the documented inputs, outputs and opset', () => {
    const model = onnx.ModelProto.decode(buildDecisionModel());
    expect(model.graph!.input!.map((value) => value.name)).toEqual([...MODEL_INPUTS]);
    expect(model.graph!.output!.map((value) => value.name)).toEqual([...MODEL_OUTPUTS]);
    expect(model.opsetImport!.map((opset) => Number(opset.version))).toEqual([MODEL_OPSET]);
    const ops = new Set(model.graph!.node!.map((node) => node.opType));
    for (const op of ['ScatterElements', 'Gather', 'Div', 'Softmax', 'Sigmoid']) expect(ops).toContain(op);
    // No initializer: nothing in the model was trained or downloaded.
    expect(model.graph!.initializer ?? []).toHaveLength(0);
  });
});

describe('the session computes the documented graph', () => {
  let session: ScoringSession;
  beforeAll(async () => {
    session = await openScoringSession(buildDecisionModel());
  });
  afterAll(async () => {
    await session.release();
  });

  test('similarity is the exact cosine, then softmax per row and sigmoid per cell', async () => {
    const context = contextVector(BILLING_CONTEXT);
    const rows = [
      [
        { text: 'billing Payments, refunds and invoices', polarity: 'as-written' as const, offset: 0 },
        { text: 'shipping Delivery and tracking', polarity: 'as-written' as const, offset: 0 },
        { text: 'other', polarity: 'as-written' as const, offset: 0 },
      ],
      [{ text: 'refund', polarity: 'as-written' as const, offset: 0.06 }],
    ];
    const batch = packBatch(context, rows, DEFAULT_TEMPERATURE);
    const outputs = await session.run(batch);
    expect([outputs.groups, outputs.width]).toEqual([2, 3]);

    rows.forEach((cells, row) => {
      const expectedSimilarity = cells.map((cell) => cosine(context, featureVector(cell.text, cell.polarity)));
      const logits = expectedSimilarity.map((s, i) => (s - cells[i]!.offset) / DEFAULT_TEMPERATURE);
      const expectedSoftmax = softmax(logits);
      cells.forEach((_, column) => {
        const flat = row * outputs.width + column;
        expect(outputs.similarity[flat]).toBeCloseTo(expectedSimilarity[column]!, 5);
        expect(outputs.groupProbabilities[flat]).toBeCloseTo(expectedSoftmax[column]!, 5);
        expect(outputs.cellProbabilities[flat]).toBeCloseTo(sigmoid(logits[column]!), 5);
      });
    });
    // The billing text really is closer to the billing option, and padding gets no probability.
    expect(outputs.similarity[0]).toBeGreaterThan(outputs.similarity[1]! + 0.05);
    expect(outputs.groupProbabilities[4]).toBe(0);
    expect(outputs.groupProbabilities[5]).toBe(0);
    expect(outputs.groupProbabilities[3]).toBeCloseTo(1, 6);
  });

  test('a probe with no features scores similarity 0, not NaN', async () => {
    const batch = packBatch(
      contextVector('...'),
      [
        [
          { text: '', polarity: 'as-written', offset: 0 },
          { text: '  ', polarity: 'as-written', offset: 0 },
        ],
      ],
      1,
    );
    expect(batch.probeIds).toHaveLength(0);
    const outputs = await session.run(batch);
    expect(Array.from(outputs.similarity)).toEqual([0, 0]);
    expect(Array.from(outputs.groupProbabilities)).toEqual([0.5, 0.5]);
  });

  test('the session counts its runs', async () => {
    const before = session.runs;
    const batch = packBatch(contextVector('hello'), [[{ text: 'hello', polarity: 'as-written', offset: 0 }]], 1);
    await session.run(batch);
    await session.run(batch);
    expect(session.runs).toBe(before + 2);
  });
});

describe('the answers come from the model', () => {
  test('corrupted model bytes fail to load', async () => {
    const bytes = buildDecisionModel();
    const truncated = bytes.slice(0, Math.floor(bytes.length / 2));
    await expect(startDecisionEngine(truncated)).rejects.toThrow();
    const scrambled = bytes.map((byte, i) => (i % 7 === 3 ? byte ^ 0xa5 : byte));
    await expect(startDecisionEngine(scrambled)).rejects.toThrow();
  });

  test('a model without the expected outputs is refused with a clear error', async () => {
    const bytes = rewiredModel((graph) => {
      graph.output = graph.output!.filter((value) => value.name !== 'cell_probabilities');
    });
    await expect(startDecisionEngine(bytes)).rejects.toThrow(/lacks .*cell_probabilities/);
  });

  test('a model with its similarity turned around picks the least similar option', async () => {
    // logits = (offset - similarity) * scale instead of (similarity - offset) * scale.
    const reversed = rewiredModel((graph) => {
      const sub = graph.node!.find((node) => node.opType === 'Sub')!;
      sub.input = [...sub.input!].reverse();
    });
    const genuine = await startDecisionEngine(buildDecisionModel());
    const swapped = await startDecisionEngine(reversed);
    try {
      const expected = (await genuine.decide(BILLING_CONTEXT, TOPIC)).answers.topic as Schemas['ChoiceAnswer'];
      const observed = (await swapped.decide(BILLING_CONTEXT, TOPIC)).answers.topic as Schemas['ChoiceAnswer'];
      expect(expected.choice).toBe('billing');
      expect(observed.choice).not.toBe('billing');
      expect(observed.probabilities.billing).toBeLessThan(expected.probabilities.billing!);
      expect(swapped.stats.onnxRuns).toBe(1);
    } finally {
      await genuine.close();
      await swapped.close();
    }
  });

  test('the layout feeds every option of the request to the model in one run', () => {
    const rows = layoutQuestions(TOPIC);
    const batch = packBatch(
      contextVector(BILLING_CONTEXT),
      rows.map((row) => row.cells),
      DEFAULT_TEMPERATURE,
    );
    expect([batch.groups, batch.width]).toEqual([1, 3]);
    const expectedFeatures = ['billing Payments, refunds and invoices', 'shipping Delivery and tracking', 'other ']
      .map((text) => featureVector(text).ids.length)
      .reduce((sum, n) => sum + n, 0);
    expect(batch.probeIds).toHaveLength(expectedFeatures);
    expect(new Set(batch.probeCells)).toEqual(new Set([0, 1, 2]));
  });
});
