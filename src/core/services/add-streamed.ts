import fs from 'node:fs/promises';
import path from 'node:path';
import type { AddResult, ParsedInput } from '../../shared/contract/index.js';
import type { DirectRecorder } from '../health/direct-files.js';
import type { ParsedDocument } from '../parse/types.js';
import { sha256File } from '../util/hash.js';
import type { CoreContext } from './context.js';
import { resolveChunking } from './ingest.js';
import { streamFile } from './stream-ingest.js';

/**
 * `addFile` of a large text or Markdown file: written section by section (stream-ingest.ts), told to the KB's
 * health report like any added file.
 */
export async function addStreamed(
  ctx: CoreContext,
  input: ParsedInput<'addFile'>,
  file: { abs: string; format: 'markdown' | 'text'; bytes: number; mtime_ms: number },
  record?: DirectRecorder,
): Promise<AddResult> {
  const kb = ctx.store.registry.get(input.kb_id);
  const docId = input.doc_id ?? path.basename(file.abs);
  const outcome = {
    kb_id: input.kb_id,
    file: file.abs,
    doc_id: docId,
    bytes: file.bytes,
    file_hash: await sha256File(file.abs),
    mtime_ms: file.mtime_ms,
  };
  let parsed: ParsedDocument | undefined;
  try {
    const { content_hash: _hash, ...result } = await streamFile(ctx, input.kb_id, {
      path: file.abs,
      format: file.format,
      doc_id: docId,
      source: input.source ?? file.abs,
      ...(input.title ? { title: input.title } : {}),
      ...(input.metadata ? { metadata: input.metadata } : {}),
      chunking: resolveChunking(kb, input.chunking),
      overwrite: input.overwrite,
      fallbackTitle: path.basename(file.abs),
      file: await fs.realpath(file.abs),
      onFirstSection: (p) => (parsed = p),
    });
    record?.({ ...outcome, ...(parsed ? { parsed } : {}), result });
    return result;
  } catch (err) {
    record?.({ ...outcome, ...(parsed ? { parsed } : {}), error: err });
    throw err;
  }
}
