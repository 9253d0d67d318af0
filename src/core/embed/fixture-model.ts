import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { prng } from '../util/prng.js';
import { encodeOnnxModel, type OnnxGraph, type OnnxNode, type OnnxTensor, type OnnxValueInfo } from './onnx-writer.js';
import { fixtureTokenizerConfig, fixtureTokenizerJson, fixtureVocabulary } from './fixture-vocab.js';

/**
 * Tiny but real transformers.js model folders for tests, the bench and e2e runs: `config.json`,
 * `tokenizer.json` + `tokenizer_config.json` (a real BERT WordPiece tokenizer over a small en/ru/zh vocabulary)
 * and `onnx/model.onnx` (a hand-built ONNX graph). They load through exactly the same code as a downloaded
 * model (folder model, `env.allowRemoteModels = false`), so no test ever needs the network.
 *
 * - Embedding fixture: `last_hidden_state = Gather(table, input_ids)`: every token has a fixed pseudo-random
 *   vector, so after mean pooling a text is the average of its tokens' vectors: texts that share words get
 *   similar vectors, and a query ranks the passages sharing its words first. The padding row is a full-size
 *   vector like any other, so pooling that ignored `attention_mask` would visibly change a padded text.
 * - Rerank fixture (cross-encoder): `logits[b, 0] = scale * cos(sum of query-token vectors, sum of
 *   passage-token vectors)`, the two halves told apart by `token_type_ids` and `attention_mask`.
 */

export interface FixtureModelOptions {
  /** Vector dimension (default 64). */
  dim?: number;
  /** PRNG seed of the embedding table (default 42). */
  seed?: number;
  /** Tokenizer `model_max_length` (default 512). */
  maxLength?: number;
  /**
   * Embedding fixture only: each token's vector plus the sum of its sequence's (a stand-in for attention), so a
   * token's output depends on its context, as in a transformer; not a static model (static-table.ts).
   */
  contextual?: boolean;
}

export interface FixtureModelInfo {
  /** Absolute path of the model folder; pass it as the model string. */
  dir: string;
  dim: number;
  vocabSize: number;
}

/** A [vocab, dim] table of Gaussian values; [CLS]/[SEP]/[UNK]/[MASK] rows are shrunk so they barely move a mean. */
function embeddingTable(vocab: string[], dim: number, seed: number): Float32Array {
  const rand = prng(seed);
  const table = new Float32Array(vocab.length * dim);
  for (let i = 0; i < table.length; i++) {
    // Box-Muller
    const u = Math.max(rand(), 1e-12);
    const v = rand();
    table[i] = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  for (const special of ['[CLS]', '[SEP]', '[UNK]', '[MASK]']) {
    const row = vocab.indexOf(special);
    for (let k = 0; k < dim; k++) table[row * dim + k]! *= 0.05;
  }
  return table;
}

const int64Input = (name: string): OnnxValueInfo => ({ name, dataType: 'int64', shape: ['batch_size', 'sequence_length'] });
const TEXT_INPUTS = [int64Input('input_ids'), int64Input('attention_mask'), int64Input('token_type_ids')];

function embeddingGraph(table: OnnxTensor, dim: number, contextual = false): OnnxGraph {
  const output = { name: 'last_hidden_state', dataType: 'float' as const, shape: ['batch_size', 'sequence_length', dim] };
  const gather = (to: string): OnnxNode => ({
    op: 'Gather',
    inputs: ['table', 'input_ids'],
    outputs: [to],
    attributes: [{ name: 'axis', int: 0 }],
  });
  if (contextual) {
    return {
      name: 'ragdesk_fixture_contextual_embedding',
      initializers: [table, { name: 'axis1', dataType: 'int64', dims: [1], int64s: [1] }],
      inputs: TEXT_INPUTS,
      outputs: [output],
      nodes: [
        gather('emb'),
        { op: 'ReduceSum', inputs: ['emb', 'axis1'], outputs: ['context'], attributes: [{ name: 'keepdims', int: 1 }] },
        { op: 'Add', inputs: ['emb', 'context'], outputs: ['last_hidden_state'] },
      ],
    };
  }
  return {
    name: 'ragdesk_fixture_embedding',
    initializers: [table],
    inputs: TEXT_INPUTS,
    outputs: [output],
    // attention_mask and token_type_ids are declared like a BERT export but unused: the encoder is position-free.
    nodes: [gather('last_hidden_state')],
  };
}

function rerankGraph(table: OnnxTensor): OnnxGraph {
  const n = (op: string, inputs: string[], output: string, attributes?: OnnxNode['attributes']): OnnxNode => ({
    op,
    inputs,
    outputs: [output],
    ...(attributes ? { attributes } : {}),
  });
  // A unit vector per half: sum the half's token vectors, divide by the L2 norm.
  const unit = (prefix: string, mask3: string): OnnxNode[] => [
    n('Mul', ['emb', mask3], `${prefix}_e`),
    n('ReduceSum', [`${prefix}_e`, 'axis1'], `${prefix}_s`, [{ name: 'keepdims', int: 0 }]),
    n('Mul', [`${prefix}_s`, `${prefix}_s`], `${prefix}_sq`),
    n('ReduceSum', [`${prefix}_sq`, 'axis1'], `${prefix}_n2`, [{ name: 'keepdims', int: 1 }]),
    n('Add', [`${prefix}_n2`, 'eps'], `${prefix}_n2e`),
    n('Sqrt', [`${prefix}_n2e`], `${prefix}_n`),
    n('Div', [`${prefix}_s`, `${prefix}_n`], `${prefix}_u`),
  ];
  return {
    name: 'ragdesk_fixture_cross_encoder',
    initializers: [
      table,
      { name: 'axis1', dataType: 'int64', dims: [1], int64s: [1] },
      { name: 'axis2', dataType: 'int64', dims: [1], int64s: [2] },
      { name: 'eps', dataType: 'float', dims: [], floats: Float32Array.of(1e-6) },
      { name: 'scale', dataType: 'float', dims: [], floats: Float32Array.of(8) },
    ],
    inputs: TEXT_INPUTS,
    outputs: [{ name: 'logits', dataType: 'float', shape: ['batch_size', 1] }],
    nodes: [
      n('Gather', ['table', 'input_ids'], 'emb', [{ name: 'axis', int: 0 }]),
      n('Cast', ['attention_mask'], 'mask_f', [{ name: 'to', int: 1 }]),
      n('Cast', ['token_type_ids'], 'type_f', [{ name: 'to', int: 1 }]),
      n('Mul', ['mask_f', 'type_f'], 'p_mask'),
      n('Sub', ['mask_f', 'p_mask'], 'q_mask'),
      n('Unsqueeze', ['p_mask', 'axis2'], 'p_mask3'),
      n('Unsqueeze', ['q_mask', 'axis2'], 'q_mask3'),
      ...unit('p', 'p_mask3'),
      ...unit('q', 'q_mask3'),
      n('Mul', ['p_u', 'q_u'], 'pq'),
      n('ReduceSum', ['pq', 'axis1'], 'cos', [{ name: 'keepdims', int: 1 }]),
      n('Mul', ['cos', 'scale'], 'logits'),
    ],
  };
}

async function writeFolder(
  dir: string,
  config: Record<string, unknown>,
  vocab: string[],
  maxLength: number,
  onnx: Uint8Array,
): Promise<void> {
  await mkdir(path.join(dir, 'onnx'), { recursive: true });
  await writeFile(path.join(dir, 'config.json'), JSON.stringify(config, null, 2));
  await writeFile(path.join(dir, 'tokenizer.json'), JSON.stringify(fixtureTokenizerJson(vocab)));
  await writeFile(path.join(dir, 'tokenizer_config.json'), JSON.stringify(fixtureTokenizerConfig(maxLength), null, 2));
  await writeFile(path.join(dir, 'onnx', 'model.onnx'), onnx);
}

function baseConfig(dim: number, vocabSize: number, maxLength: number): Record<string, unknown> {
  return {
    model_type: 'bert',
    hidden_size: dim,
    vocab_size: vocabSize,
    max_position_embeddings: maxLength,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: dim,
    type_vocab_size: 2,
    pad_token_id: 0,
    ragdesk_fixture: true,
    'transformers.js_config': { dtype: 'fp32' },
  };
}

/** Build the tiny embedding model folder at `dir` (created if needed). */
export async function buildFixtureModel(dir: string, options: FixtureModelOptions = {}): Promise<FixtureModelInfo> {
  const dim = options.dim ?? 64;
  const maxLength = options.maxLength ?? 512;
  const vocab = fixtureVocabulary();
  const table: OnnxTensor = {
    name: 'table',
    dataType: 'float',
    dims: [vocab.length, dim],
    floats: embeddingTable(vocab, dim, options.seed ?? 42),
  };
  const abs = path.resolve(dir);
  await writeFolder(
    abs,
    { ...baseConfig(dim, vocab.length, maxLength), architectures: ['BertModel'] },
    vocab,
    maxLength,
    encodeOnnxModel(embeddingGraph(table, dim, options.contextual)),
  );
  return { dir: abs, dim, vocabSize: vocab.length };
}

/** Build the tiny cross-encoder (rerank) model folder at `dir`: output `logits [batch, 1]`. */
export async function buildFixtureReranker(dir: string, options: FixtureModelOptions = {}): Promise<FixtureModelInfo> {
  const dim = options.dim ?? 64;
  const maxLength = options.maxLength ?? 512;
  const vocab = fixtureVocabulary();
  const table: OnnxTensor = {
    name: 'table',
    dataType: 'float',
    dims: [vocab.length, dim],
    floats: embeddingTable(vocab, dim, options.seed ?? 7),
  };
  const config = {
    ...baseConfig(dim, vocab.length, maxLength),
    architectures: ['BertForSequenceClassification'],
    num_labels: 1,
    id2label: { '0': 'LABEL_0' },
    label2id: { LABEL_0: 0 },
  };
  const abs = path.resolve(dir);
  await writeFolder(abs, config, vocab, maxLength, encodeOnnxModel(rerankGraph(table)));
  return { dir: abs, dim, vocabSize: vocab.length };
}
