import { ChunkingConfigSchema, type Kb, type KbStats, type KbSummary, type ParsedInput } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { isRemoteModel, parseRemoteSpec } from '../embed/remote/remote-spec.js';
import type { CoreContext } from './context.js';
import { activeModelChange, forgetModelChange } from './model-change.js';

export async function createKb(ctx: CoreContext, input: ParsedInput<'createKb'>): Promise<Kb> {
  return ctx.store.writes.run(`kb:${input.kb_id}`, async () => {
    if (ctx.store.registry.find(input.kb_id)) {
      throw new RagError('invalid_parameter', `knowledge base "${input.kb_id}" already exists`, { details: { kb_id: input.kb_id } });
    }
    const chunking = ChunkingConfigSchema.safeParse({ ...ctx.options.defaultChunking, ...stripUndefined(input.chunking ?? {}) });
    if (!chunking.success) throw new RagError('invalid_parameter', chunking.error.issues.map((i) => i.message).join('; '));
    // A remote embedder's string (ollama:…, openai:…) is checked before it is stored: bad syntax never reaches kbs.json.
    if (input.embedding_model && isRemoteModel(input.embedding_model)) parseRemoteSpec(input.embedding_model);
    const now = new Date().toISOString();
    const kb: Kb = {
      kb_id: input.kb_id,
      name: input.name ?? input.kb_id,
      description: input.description,
      department: input.department,
      enabled: input.enabled,
      embedding_model: input.embedding_model ?? ctx.options.defaultModel,
      embedding_dim: null,
      languages: input.languages,
      chunking: chunking.data,
      metadata_fields: {},
      created_at: now,
      updated_at: now,
    };
    return ctx.store.registry.put(kb);
  });
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export async function updateKb(ctx: CoreContext, input: ParsedInput<'updateKb'>): Promise<Kb> {
  const kb = ctx.store.registry.get(input.kb_id);
  const { chunking: override, kb_id: _id, ...rest } = input;
  const chunking = ChunkingConfigSchema.safeParse({ ...kb.chunking, ...stripUndefined(override ?? {}) });
  if (!chunking.success) throw new RagError('invalid_parameter', chunking.error.issues.map((i) => i.message).join('; '));
  return ctx.store.registry.put({ ...kb, ...stripUndefined(rest), chunking: chunking.data, updated_at: new Date().toISOString() });
}

export async function deleteKb(ctx: CoreContext, kbId: string): Promise<{ kb_id: string; deleted: boolean }> {
  ctx.store.registry.get(kbId);
  await forgetModelChange(ctx, kbId);
  await ctx.store.write(kbId, async () => {
    await ctx.store.dropKb(kbId);
    ctx.store.registry.remove(kbId);
  });
  return { kb_id: kbId, deleted: true };
}

export async function summarizeKb(ctx: CoreContext, kb: Kb): Promise<KbSummary> {
  const table = await ctx.store.chunks(kb.kb_id);
  const [documents, chunks] = await Promise.all([ctx.store.docs.count(kb.kb_id), table ? table.count() : 0]);
  return { ...kb, document_count: documents, chunk_count: chunks };
}

export async function listKbs(ctx: CoreContext, allowed?: ReadonlySet<string>): Promise<KbSummary[]> {
  const kbs = ctx.store.registry.list().filter((kb) => !allowed || allowed.has(kb.kb_id));
  return Promise.all(kbs.map((kb) => summarizeKb(ctx, kb)));
}

export async function kbStats(ctx: CoreContext, kb: Kb): Promise<KbStats> {
  const table = await ctx.store.chunks(kb.kb_id);
  const [documents, chunks, size, last, unindexed] = await Promise.all([
    ctx.store.docs.count(kb.kb_id),
    table ? table.count() : 0,
    table ? table.sizeBytes() : 0,
    ctx.store.docs.lastUpdate(kb.kb_id),
    table ? table.unindexedRows() : 0,
  ]);
  return {
    kb_id: kb.kb_id,
    name: kb.name,
    enabled: kb.enabled,
    documents,
    chunks,
    size_bytes: size,
    embedding_model: kb.embedding_model,
    embedding_dim: kb.embedding_dim,
    vector_index: table?.vectorIndexReady ? 'ready' : 'none',
    fts_index: !table?.ftsIndexReady ? 'none' : unindexed > 0 ? 'stale' : 'ready',
    last_update: last,
    migration: activeModelChange(ctx, kb.kb_id),
  };
}
