// The scoring model: an ONNX graph written node by node with onnx-proto. No weights are trained
// or downloaded; the graph computes exact cosine similarities between hashed feature vectors
// (features.ts) and turns them into probabilities. Building it is deterministic and takes about a
// millisecond, so it is rebuilt in memory at every start instead of being stored.
//
// One run scores a batch of one or more requests (batch.ts): each request's questions are rows of
// the grid, `groups` rows in all (one per question) by `width` cells (options, or verdicts);
// layout.ts decides what goes where. Rows never mix: a request's answers are the same bits
// whether it runs alone or with others.
//
// The packer matches each probe feature with the feature of the same bucket in its own request's
// context (both are sparse, distinct ids), and passes the position of that context weight, or the
// position of the one zero that ends the context weights when the context lacks the bucket.
//
// Inputs
//   context_weights  float [context_features + 1]  signed weights of every context's distinct buckets, concatenated, then 0
//   probe_ids        int32 [probe_features]        position in context_weights of the matching context feature, or of the final 0
//   probe_weights    float [probe_features]        signed weights of every probe, concatenated (distinct buckets within a probe)
//   probe_cells      int32 [probe_features]        flat grid cell (group * width + cell) of each feature
//   norm_products    float [groups, width]         L2 norm of the cell's probe times that of its request's context (0 for padding)
//   cell_offsets     float [groups, width]         subtracted from a cell's similarity before scaling
//   cell_padding     float [groups, width]         0 for a real cell, -inf for padding
//   scale            float []                      1 / temperature
//
// Graph
//   probe_hits  = Gather(context_weights, probe_ids)
//   cell_dots   = ScatterElements(zeros[cells], probe_cells, probe_hits * probe_weights, add)
//   similarity  = Reshape(cell_dots, [groups, width]) / max(norm_products, tiny)      (exact cosine)
//   logits      = (similarity - cell_offsets) * scale
//
// Outputs
//   similarity          float [groups, width]  cosine of the context with each cell's probe
//   group_probabilities float [groups, width]  Softmax(logits + cell_padding) over each row
//   cell_probabilities  float [groups, width]  Sigmoid(logits), each cell on its own
//
// Every feature costs one lookup or one scatter: the work grows with the number of features, not
// with their product, so 16 questions against an 8,000-character context stay cheap, and a batch
// costs the sum of its requests (an earlier design scattered each context into a dense vector of
// every bucket, 1 MiB per run whatever the request).
//
// The norms come in as an input: they are sums over one vector each, which the packer has in
// hand, while computing them in the graph took 14 of its 29 nodes (scatters of squares, square
// roots, gathers and expands back onto the grid). Each node costs a run a fixed 2-3 µs whatever
// its size, so that halved the fixed cost of a run, which a lone request pays in full.
import onnxProto from 'onnx-proto';
import type { onnx as OnnxSchema } from 'onnx-proto';
import { BUCKET_BITS } from './features.ts';

// onnx-proto is CommonJS: its namespace is the default export's `onnx` property.
const { onnx } = onnxProto;

export const MODEL_IR_VERSION = 8;
export const MODEL_OPSET = 17;
export const MODEL_PRODUCER = 'decision-service-reference';
/** Bump when the graph or the feature design changes: it is recorded in the model's metadata. */
export const MODEL_VERSION = 3;

export const MODEL_INPUTS = ['context_weights', 'probe_ids', 'probe_weights', 'probe_cells', 'norm_products', 'cell_offsets', 'cell_padding', 'scale'] as const;
export const MODEL_OUTPUTS = ['similarity', 'group_probabilities', 'cell_probabilities'] as const;
export type ModelInputName = (typeof MODEL_INPUTS)[number];
export type ModelOutputName = (typeof MODEL_OUTPUTS)[number];

/** Keeps an empty probe (norm 0) at similarity 0 instead of 0 / 0. */
const MIN_NORM_PRODUCT = 1e-12;

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT32 = onnx.TensorProto.DataType.INT32;
const INT64 = onnx.TensorProto.DataType.INT64;

type Dim = string | number;

function tensorValue(name: string, elemType: number, dims: readonly Dim[]): OnnxSchema.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((dim) => (typeof dim === 'string' ? { dimParam: dim } : { dimValue: dim })) },
      },
    },
  };
}

function tensorAttribute(name: string, tensor: OnnxSchema.ITensorProto): OnnxSchema.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.TENSOR, t: tensor };
}

function intAttribute(name: string, value: number): OnnxSchema.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
}

function stringAttribute(name: string, value: string): OnnxSchema.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.STRING, s: new TextEncoder().encode(value) };
}

function node(opType: string, inputs: string[], output: string, attribute: OnnxSchema.IAttributeProto[] = []): OnnxSchema.INodeProto {
  return { opType, name: output, input: inputs, output: [output], attribute };
}

const scalarFloat = (value: number): OnnxSchema.ITensorProto => ({ dataType: FLOAT, dims: [1], floatData: [value] });
const int64Vector = (values: number[]): OnnxSchema.ITensorProto => ({ dataType: INT64, dims: [values.length], int64Data: values });

function scatterAdd(data: string, indices: string, updates: string, output: string): OnnxSchema.INodeProto {
  return node('ScatterElements', [data, indices, updates], output, [intAttribute('axis', 0), stringAttribute('reduction', 'add')]);
}

function graphNodes(): OnnxSchema.INodeProto[] {
  return [
    // Each probe feature looks up the weight of its bucket in its request's context (the final
    // zero when the context lacks it): summed per cell, that is the dot product of the cell's
    // probe with the context.
    node('Gather', ['context_weights', 'probe_ids'], 'probe_hits', [intAttribute('axis', 0)]),
    node('Mul', ['probe_hits', 'probe_weights'], 'probe_products'),
    node('Constant', [], 'flat', [tensorAttribute('value', int64Vector([-1]))]),
    node('Reshape', ['norm_products', 'flat'], 'norm_products_flat'),
    node('Shape', ['norm_products_flat'], 'cell_count'),
    node('ConstantOfShape', ['cell_count'], 'empty_cells', [tensorAttribute('value', scalarFloat(0))]),
    scatterAdd('empty_cells', 'probe_cells', 'probe_products', 'cell_dots'),

    // Cosine similarity, laid back onto the grid.
    node('Shape', ['norm_products'], 'grid_shape'),
    node('Reshape', ['cell_dots', 'grid_shape'], 'grid_dots'),
    node('Constant', [], 'min_norm_product', [tensorAttribute('value', { dataType: FLOAT, dims: [], floatData: [MIN_NORM_PRODUCT] })]),
    node('Max', ['norm_products', 'min_norm_product'], 'safe_norm_products'),
    node('Div', ['grid_dots', 'safe_norm_products'], 'similarity'),

    // Probabilities: a softmax over each question's cells, and a sigmoid of each cell alone.
    node('Sub', ['similarity', 'cell_offsets'], 'centred_similarity'),
    node('Mul', ['centred_similarity', 'scale'], 'logits'),
    node('Sigmoid', ['logits'], 'cell_probabilities'),
    node('Add', ['logits', 'cell_padding'], 'padded_logits'),
    node('Softmax', ['padded_logits'], 'group_probabilities', [intAttribute('axis', -1)]),
  ];
}

/** The ONNX model, serialised. The same bytes on every call and every machine. */
export function buildDecisionModel(): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: MODEL_IR_VERSION,
    opsetImport: [{ domain: '', version: MODEL_OPSET }],
    producerName: MODEL_PRODUCER,
    producerVersion: String(MODEL_VERSION),
    modelVersion: MODEL_VERSION,
    docString: 'Hashed-feature cosine scorer of the Decision Service reference server (reference-impl/decision/model.ts).',
    metadataProps: [
      { key: 'bucket_bits', value: String(BUCKET_BITS) },
      { key: 'features', value: 'word unigrams and bigrams with negation scope, character 3-5-grams; signed hashing; sqrt-damped counts' },
    ],
    graph: {
      name: 'decision_scorer',
      node: graphNodes(),
      input: [
        tensorValue('context_weights', FLOAT, ['context_lookup']),
        tensorValue('probe_ids', INT32, ['probe_features']),
        tensorValue('probe_weights', FLOAT, ['probe_features']),
        tensorValue('probe_cells', INT32, ['probe_features']),
        tensorValue('norm_products', FLOAT, ['groups', 'width']),
        tensorValue('cell_offsets', FLOAT, ['groups', 'width']),
        tensorValue('cell_padding', FLOAT, ['groups', 'width']),
        tensorValue('scale', FLOAT, []),
      ],
      output: [
        tensorValue('similarity', FLOAT, ['groups', 'width']),
        tensorValue('group_probabilities', FLOAT, ['groups', 'width']),
        tensorValue('cell_probabilities', FLOAT, ['groups', 'width']),
      ],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}
