import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { dataPaths } from '../config/data-dir.js';
import type { CoreContext, IngestEvent } from '../services/context.js';
import { flushIndexing } from '../services/indexing.js';
import { Store } from '../store/store.js';
import { PauseGate } from '../util/pause-gate.js';

/**
 * A throw-away engine context in `dataDir` that shares `base`'s models (they load once) and takes no lock: enough to
 * build and search a copy of a KB. Built from the store up rather than through Core, so that an operation of the
 * dispatcher (evalKb) can use it without an import cycle.
 */
export async function openScratchContext(dataDir: string, base: CoreContext): Promise<{ ctx: CoreContext; close(): Promise<void> }> {
  const paths = dataPaths(dataDir);
  fs.mkdirSync(paths.root, { recursive: true });
  const store = await Store.open(paths.lance, paths.kbs);
  const ctx: CoreContext = {
    store,
    models: base.models,
    options: { ...base.options, dataDir: paths.root, waitForModels: true },
    events: new EventEmitter<{ ingest: [IngestEvent] }>(),
    pause: new PauseGate(),
  };
  return {
    ctx,
    async close() {
      await flushIndexing(ctx);
      await store.writes.idle();
      store.close();
    },
  };
}
