import { isFullTextOnly } from '../../shared/contract/index.js';
import { isRemoteModel } from '../embed/remote/remote-spec.js';
import type { CoreContext } from './context.js';
import { backfillVectors } from './reembed.js';

/**
 * Heal while running: chunks stored without vectors (the model was missing, or a remote endpoint was down) get
 * them as soon as the model can embed again, not at the next start.
 * - A model that arrives (downloaded, imported, loaded at start) reports `loaded`: its KBs are backfilled.
 * - A remote endpoint that recovers: while a KB waits for vectors, its model is looked at every NUDGE_MS; once
 *   the circuit's cool-down is over that look is the breaker's half-open probe, and its success reports the
 *   model `loaded` again (remote-models.ts), which starts the backfill.
 * Backfills run one per KB, in batches that wait while indexing is paused. A full-text only KB (model `none`) never
 * waits: it has no model to wait for.
 */

const NUDGE_MS = 5_000;

interface HealState {
  /** KBs that may hold chunks without vectors. */
  waiting: Set<string>;
  running: Map<string, Promise<void>>;
  timer?: NodeJS.Timeout;
  unsubscribe?: () => void;
  stopped: boolean;
}

const states = new WeakMap<CoreContext, HealState>();

function stateOf(ctx: CoreContext): HealState {
  let s = states.get(ctx);
  if (!s) states.set(ctx, (s = { waiting: new Set(), running: new Map(), stopped: true }));
  return s;
}

/** A write stored chunks of this KB without vectors: heal it when its model can embed. */
export function markNeedsVectors(ctx: CoreContext, kbId: string): void {
  const s = stateOf(ctx);
  s.waiting.add(kbId);
  if (!s.stopped) void heal(ctx);
}

/** Start healing (long-running processes): find KBs with chunks waiting for vectors and watch for their models. */
export async function startHealing(ctx: CoreContext): Promise<void> {
  const s = stateOf(ctx);
  if (!s.stopped) return;
  s.stopped = false;
  s.unsubscribe = ctx.models.onProgress((e) => {
    if (e.kind === 'embedding' && e.state === 'loaded' && s.waiting.size > 0) void heal(ctx);
  });
  s.timer = setInterval(() => {
    // Remote models only: looking at one is a cheap probe once its circuit allows; local models report when they load.
    for (const kbId of s.waiting) {
      const kb = ctx.store.registry.find(kbId);
      if (kb && isRemoteModel(kb.embedding_model) && !s.running.has(kbId)) ctx.models.peekEmbedder(kb.embedding_model);
    }
    if (s.waiting.size > 0) void heal(ctx);
  }, NUDGE_MS);
  s.timer.unref();
  for (const kb of ctx.store.registry.list()) {
    if (isFullTextOnly(kb.embedding_model)) continue;
    const table = await ctx.store.chunks(kb);
    if (!table) continue;
    const waiting = table.dim === 0 ? await table.count() : await table.count('vector IS NULL');
    if (waiting > 0) s.waiting.add(kb.kb_id);
  }
  await heal(ctx);
}

/** Stop watching and wait for backfills in flight (they stop at their next batch once the store closes). */
export async function stopHealing(ctx: CoreContext): Promise<void> {
  const s = stateOf(ctx);
  s.stopped = true;
  s.unsubscribe?.();
  if (s.timer) clearInterval(s.timer);
  await Promise.all(s.running.values());
}

/** Backfill every waiting KB whose model can embed right now. */
async function heal(ctx: CoreContext): Promise<void> {
  const s = stateOf(ctx);
  for (const kbId of [...s.waiting]) {
    if (s.stopped || s.running.has(kbId)) continue;
    const kb = ctx.store.registry.find(kbId);
    // Gone, or full-text only (marked by a write, or a KB of that id re-created without a model): nothing to wait for.
    if (!kb || isFullTextOnly(kb.embedding_model)) {
      s.waiting.delete(kbId);
      continue;
    }
    const embedder = ctx.models.peekEmbedder(kb.embedding_model);
    if (!embedder) continue;
    const run = (async () => {
      try {
        await backfillVectors(ctx, kbId, embedder);
        const table = await ctx.store.chunks(kbId);
        if (!table || (table.dim > 0 && (await table.count('vector IS NULL')) === 0)) s.waiting.delete(kbId);
      } catch {
        // The endpoint failed again (the circuit is open once more): the next nudge retries.
      } finally {
        s.running.delete(kbId);
      }
    })();
    s.running.set(kbId, run);
  }
}

/** Test hook: backfills running now, to wait for. */
export function healingNow(ctx: CoreContext): Promise<void> {
  return Promise.all(stateOf(ctx).running.values()).then(() => undefined);
}
