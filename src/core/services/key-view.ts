import path from 'node:path';
import type { KbStats, KbSummary, ModelChange, ModelStatus, Source } from '../../shared/contract/index.js';
import { isRemoteModel, parseRemoteSpec } from '../embed/remote/remote-spec.js';

/**
 * What an API key may learn about models: their names, never where they live. A remote embedder is shown as
 * `<provider>:<model>` (no endpoint URL, no options), a model folder by its folder name; preset names and hub ids
 * stay as they are. Errors are summarised (they name URLs, hosts and paths).
 */
export function modelNameForKey(model: string): string {
  const m = model.trim();
  if (isRemoteModel(m)) {
    try {
      const spec = parseRemoteSpec(m);
      return `${spec.provider}:${spec.name}`;
    } catch {
      return m.split(/[@?]/)[0] ?? 'remote';
    }
  }
  if (path.isAbsolute(m) || path.win32.isAbsolute(m) || m.startsWith('.') || m.includes('\\'))
    return (
      m
        .replace(/[\\/]+$/, '')
        .split(/[\\/]/)
        .pop() || 'model'
    );
  return m;
}

const UNAVAILABLE = 'not available here (the owner can see why in ragdesk status)';

export function modelStatusForKey(s: ModelStatus): ModelStatus {
  return {
    ...s,
    model: modelNameForKey(s.model),
    resolved: modelNameForKey(s.resolved.replace(/@.*$/, '')),
    ...(s.error ? { error: UNAVAILABLE } : {}),
  };
}

function changeForKey(mc: ModelChange | null): ModelChange | null {
  if (!mc) return mc;
  return {
    ...mc,
    from_model: modelNameForKey(mc.from_model),
    to_model: modelNameForKey(mc.to_model),
    error: mc.error ? UNAVAILABLE : null,
  };
}

/** A KB's summary or stats as a key sees it (model names only). */
export function kbForKey<T extends KbSummary | KbStats>(kb: T): T {
  const out = { ...kb, embedding_model: modelNameForKey(kb.embedding_model) };
  if ('migration' in out) out.migration = changeForKey(out.migration);
  return out;
}

/** A folder source as a key sees it: the folder's name, not where it is on this machine; errors summarised. */
export function sourceForKey(s: Source): Source {
  return {
    ...s,
    path:
      s.path
        .replace(/[\\/]+$/, '')
        .split(/[\\/]/)
        .pop() || 'folder',
    last_error: s.last_error ? 'the last sync failed (the owner can see why in ragdesk sources list)' : null,
  };
}
