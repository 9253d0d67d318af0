import { dataPaths } from '../core/config/data-dir.js';
import { checkLocal } from '../core/embed/loader.js';
import { resolveModelSpec } from '../core/embed/model-spec.js';
import { isRemoteModel } from '../core/embed/remote/remote-spec.js';
import { embedWorkerInit, startEmbedWorkerEarly } from '../core/embed/worker-client.js';
import { resolveEmbedWorkerPath } from '../core/embed/worker-path.js';
import { KbRegistry } from '../core/store/kb-registry.js';
import { isFullTextOnly } from '../shared/contract/index.js';

/**
 * For a command that opens the data dir in this process and will embed (an `add`, a search that is not full-text
 * only): start the embedding worker before the engine loads, when one of `kbIds` ('all': every KB) has a local model
 * whose files are on disk. The engine's model manager adopts it (core/embed/worker-client.ts). Measured on a
 * one-note `add` with potion: the worker's start was the critical path, after the main thread's ~0.5 s of module
 * loading. Anything else (no registry, unknown KBs, full-text only, a remote or missing model, no worker script):
 * nothing is started, and the engine starts its worker when it needs one, as before. True when one was started.
 */
export function startEmbedderEarly(dataDir: string, kbIds: readonly string[] | 'all'): boolean {
  try {
    const registry = new KbRegistry(dataPaths(dataDir).kbs);
    const init = embedWorkerInit(dataDir);
    const kbs = kbIds === 'all' ? registry.list() : kbIds.map((id) => registry.find(id));
    const local = kbs.some((kb) => {
      if (!kb || isFullTextOnly(kb.embedding_model) || isRemoteModel(kb.embedding_model)) return false;
      return checkLocal(resolveModelSpec(kb.embedding_model, 'embedding'), init.cacheDir).complete;
    });
    return local && startEmbedWorkerEarly(resolveEmbedWorkerPath(), init);
  } catch {
    return false;
  }
}
