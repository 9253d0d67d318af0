import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { cpuSeconds, ragdesk, type Run } from './memory-bench.js';
import { childEnv } from './query-mcp.js';
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
  const server = await startServer(root, base);
  try {
    const warm = await ragdesk(root, [...base, 'add', warmFolder, '--kb', 'warm']);
    if (warm.code !== 0) throw new Error(`the warm-up add failed: ${warm.stderr}`);
    const before = cpuSeconds(server.pid!);
    const add = await ragdesk(root, [...base, '--json', 'add', folder, '--kb', 'warm']);
    return { add, serverCpu: round(cpuSeconds(server.pid!) - before, 1) };
  } finally {
    await stop(server);
  }
}

/** `ragdesk serve` on a free port, once it says it listens. */
function startServer(root: string, base: string[]): Promise<ChildProcess> {
  const proc = spawn(process.execPath, [path.join(root, 'bin', 'ragdesk.js'), ...base, 'serve', '--port', '0'], {
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 60_000);
    proc.once('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
    const listen = (d: Buffer) => {
      out = (out + d.toString()).slice(-4000);
      if (/listening on /.test(out)) {
        clearTimeout(timer);
        resolve(proc);
      }
    };
    proc.stdout!.on('data', listen);
    proc.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
  });
}

function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.removeAllListeners('exit');
    const hard = setTimeout(() => proc.kill('SIGKILL'), 15_000);
    proc.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}
