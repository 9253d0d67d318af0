import { z } from 'zod';
import { AddResultSchema, ChunkStrategySchema, type ChunkingOverride } from '../../shared/contract/index.js';
import { ADDITIVE, defineTool, KbIdArg } from '../tool-kit.js';
import { DocumentFields, OverwriteArg } from './add-document.js';

export const ParserConfigArg = z
  .strictObject({
    strategy: ChunkStrategySchema.optional().describe("whole | sentence | token | markdown (by headings) | semantic (default: the KB's)"),
    chunk_size: z.number().int().optional().describe("Target chunk size in model tokens, 16 to 8192 (default: the KB's)"),
    chunk_overlap: z
      .number()
      .int()
      .optional()
      .describe("Tokens shared by neighbouring chunks, smaller than chunk_size (default: the KB's)"),
  })
  .describe('How to split the text; omitted fields take the knowledge base defaults (see get_kb_info)');

export function chunkingOf(config: z.output<typeof ParserConfigArg> | undefined): ChunkingOverride {
  const out: ChunkingOverride = {};
  if (config?.strategy !== undefined) out.strategy = config.strategy;
  if (config?.chunk_size !== undefined) out.chunk_size = config.chunk_size;
  if (config?.chunk_overlap !== undefined) out.chunk_overlap = config.chunk_overlap;
  return out;
}

export const addDocumentChunked = defineTool({
  name: 'add_document_chunked',
  title: 'Add a long document (chunked)',
  description:
    'Store a long text in a knowledge base, split into passages so each part can be found and cited. parser_config chooses ' +
    "the strategy, chunk_size and chunk_overlap (defaults: the KB's settings). Returns the number of chunks. Needs write access.",
  input: z.strictObject({ kb_id: KbIdArg, ...DocumentFields, parser_config: ParserConfigArg.optional(), overwrite: OverwriteArg }),
  output: AddResultSchema,
  annotations: { title: 'Add a long document', ...ADDITIVE },
  async run({ parser_config, ...args }, { client }) {
    return client.addDocument({ ...args, chunking: chunkingOf(parser_config) });
  },
});
