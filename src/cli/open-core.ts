import { cliCoreDefaults, cliDataDir } from './settings.js';
import { Core } from '../core/core.js';
import type { ModelProgressEvent } from '../core/embed/types.js';
import type { GlobalOptions } from './output.js';
import { createProgress } from './progress.js';

/** Open the engine for one command and close it afterwards (flushing index upkeep, releasing the lock). */
export async function withCore<T>(opts: GlobalOptions, fn: (core: Core) => Promise<T>): Promise<T> {
  const core = await Core.open({
    dataDir: cliDataDir(opts.dataDir),
    ...cliCoreDefaults(),
    allowDownload: opts.download !== false && process.env.RAGDESK_OFFLINE !== '1',
    waitForModels: true,
  });
  const bars = new Map<string, ReturnType<typeof createProgress>>();
  const off = core.ctx.models.onProgress((e: ModelProgressEvent) => {
    if (e.state !== 'downloading') return;
    let bar = bars.get(e.model);
    if (!bar) {
      bar = createProgress(!opts.json);
      bar.start(100, `downloading ${e.model}`);
      bars.set(e.model, bar);
    }
    bar.update(Math.round((e.progress ?? 0) * 100), e.file ?? '');
  });
  try {
    return await fn(core);
  } finally {
    off();
    for (const bar of bars.values()) bar.stop();
    await core.close();
  }
}
