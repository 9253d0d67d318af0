import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Diagnostic, ModelStatus } from '../../shared/contract/index.js';
import { RAGDESK_VERSION } from '../../shared/version.js';
import { dataPaths } from '../config/data-dir.js';
import type { CoreContext } from './context.js';
import { kbStats } from './kb-service.js';
import { kbForKey, modelStatusForKey } from './key-view.js';

const requirePackage = createRequire(import.meta.url);

function versionOf(pkg: string): string {
  try {
    return (requirePackage(`${pkg}/package.json`) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export async function stats(ctx: CoreContext, allowed?: ReadonlySet<string>) {
  const kbs = ctx.store.registry.list().filter((kb) => !allowed || allowed.has(kb.kb_id));
  const all = await Promise.all(kbs.map((kb) => kbStats(ctx, kb)));
  return { kbs: allowed ? all.map(kbForKey) : all };
}

/**
 * The state of the models a caller's KBs use, and the rerankers. The owner (`allowed` undefined) sees every model;
 * a key learns nothing about models only other KBs use, and of the others only their names and state (no endpoint
 * URL, folder or error text: see key-view.ts).
 */
export function modelStatus(ctx: CoreContext, allowed?: ReadonlySet<string>): ModelStatus[] {
  const all = ctx.models.status();
  if (!allowed) return all;
  const used = new Set(ctx.store.registry.list().flatMap((kb) => (allowed.has(kb.kb_id) ? [kb.embedding_model.trim()] : [])));
  return all.filter((m) => m.kind === 'rerank' || used.has(m.model.trim())).map(modelStatusForKey);
}

/** Index and model state, versions and warnings, limited to the KBs `allowed` (undefined: all, with paths). */
export async function diagnostic(ctx: CoreContext, allowed?: ReadonlySet<string>): Promise<Diagnostic> {
  const paths = dataPaths(ctx.options.dataDir);
  const { kbs } = await stats(ctx, allowed);
  const models = modelStatus(ctx, allowed);
  const warnings: string[] = [];
  for (const m of models) {
    if (m.state === 'missing' || m.state === 'error') {
      warnings.push(
        `${m.kind} model ${m.model} is ${m.state}${m.error ? `: ${m.error}` : ''}; ${m.kind === 'embedding' ? 'vector search is off and hybrid answers from full-text' : 'results are not reranked'}`,
      );
    }
  }
  for (const kb of kbs) {
    if (kb.fts_index === 'stale')
      warnings.push(`${kb.kb_id}: new rows are not yet folded into the full-text index (they are still searched)`);
    const mc = kb.migration;
    if (mc) {
      const where = `${mc.chunks_done}/${mc.chunks_total} chunks`;
      warnings.push(
        mc.state === 'failed' || mc.state === 'interrupted'
          ? `${kb.kb_id}: the change to model ${mc.to_model} is ${mc.state} at ${where}${mc.error ? ` (${mc.error})` : ''}; search uses ${mc.from_model}`
          : `${kb.kb_id}: changing model to ${mc.to_model} (${mc.state}, ${where}); search uses ${mc.from_model} until it is done`,
      );
    }
  }
  if (!allowed && !fs.existsSync(paths.lance)) warnings.push(`store folder ${paths.lance} does not exist yet`);
  return {
    data_dir: allowed ? null : paths.root,
    store_path: allowed ? null : paths.lance,
    versions: {
      node: process.versions.node,
      ragdesk: RAGDESK_VERSION,
      lancedb: versionOf('@lancedb/lancedb'),
      transformers: versionOf('@huggingface/transformers'),
      mcp_sdk: versionOf('@modelcontextprotocol/sdk'),
      ...(process.versions.electron ? { electron: process.versions.electron } : {}),
    },
    models,
    kbs,
    warnings,
  };
}
