import fs from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_CHUNKING, type Kb, type ParsedInput, type PreviewResult } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { chunkDocumentWithWarnings } from '../chunk/index.js';
import type { CoreContext } from './context.js';
import { parseFileBytes, parseText } from './document-service.js';
import { resolveChunking, tryEmbedder } from './ingest.js';
import { completeWithOcr } from './ocr-stage.js';

/** A preview reads at most this many scanned pages by OCR (the whole scan is read when it is added). */
const PREVIEW_OCR_PAGES = 3;

/** Parse and chunk without writing anything: what the KB would store. */
export async function preview(ctx: CoreContext, input: ParsedInput<'preview'>): Promise<PreviewResult> {
  const kb: Kb | undefined = input.kb_id ? ctx.store.registry.get(input.kb_id) : undefined;
  let parsed;
  if (input.path !== undefined) {
    const abs = path.resolve(input.path);
    const data = await fs.readFile(abs).catch((err: unknown) => {
      throw new RagError('invalid_parameter', `cannot read ${abs}`, { cause: err });
    });
    parsed = await completeWithOcr(ctx, await parseFileBytes(ctx, data, abs), data, { kb, filename: abs, maxPages: PREVIEW_OCR_PAGES });
  } else if (input.data_base64 !== undefined) {
    const data = Buffer.from(input.data_base64, 'base64');
    const filename = input.filename ?? 'upload';
    parsed = await completeWithOcr(ctx, await parseFileBytes(ctx, data, filename), data, { kb, filename, maxPages: PREVIEW_OCR_PAGES });
  } else {
    parsed = await parseText(input.content ?? '', input.format);
  }
  const model = kb?.embedding_model ?? ctx.options.defaultModel;
  const base = kb ? kb.chunking : DEFAULT_CHUNKING;
  const chunking = resolveChunking(kb ?? ({ chunking: base } as Kb), input.chunking);
  const tokenizer = await ctx.models.getTokenCounter(model);
  const embedder = chunking.strategy === 'semantic' && kb ? await tryEmbedder(ctx, kb) : undefined;
  const { chunks, warnings } = await chunkDocumentWithWarnings(parsed, chunking, {
    tokenizer,
    ...(embedder ? { embed: (t: string[]) => embedder.embedPassages(t) } : {}),
  });
  return {
    parser: parsed.parser,
    chunking,
    characters: parsed.text.length,
    chunks: chunks.map((c) => ({
      chunk_index: c.chunk_index,
      text: c.text,
      characters: c.characters,
      tokens: c.tokens,
      location: c.location,
    })),
    warnings: [...parsed.warnings, ...warnings],
  };
}
