import path from 'node:path';
import { cpuSeconds, ragdesk, type Run } from './memory-bench.js';
import { startServe, stopServe } from './serve-process.js';
import { round } from './stats.js';

/**
 * `ragdesk add` into a running server: the desktop app's case (and `ragdesk serve`'s), where the process that owns
 * the data dir has been up for a while. The server owns a fresh data dir; a first `add` of other files warms it
 * (the model loaded, the ingest code optimised: a spawned `ragdesk add` pays both within its own run); then the
 * CLI's `add` of the folder goes through the server. Wall time of that `add`; CPU of the server over it
 * (/proc: 0 off Linux). Indexes the server builds in the background after the `add` returns are not in it.
 */
export async function warmAdd(
  root: string,
  dataDir: string,
  model: string,
  warmFolder: string,
  folder: string,
): Promise<{ add: Run; serverCpu: number }> {
  const base = ['--data-dir', dataDir, '--no-download'];
  const created = await ragdesk(root, [...base, 'kb', 'create', 'warm', '--model', model]);
  if (created.code !== 0) throw new Error(`kb create failed: ${created.stderr}`);
  const server = (await startServe(dataDir, { args: [path.join(root, 'bin', 'ragdesk.js')] })).proc;
  try {
    const warm = await ragdesk(root, [...base, 'add', warmFolder, '--kb', 'warm']);
    if (warm.code !== 0) throw new Error(`the warm-up add failed: ${warm.stderr}`);
    const before = cpuSeconds(server.pid!);
    const add = await ragdesk(root, [...base, '--json', 'add', folder, '--kb', 'warm']);
    return { add, serverCpu: round(cpuSeconds(server.pid!) - before, 1) };
  } finally {
    await stopServe(server);
  }
}
