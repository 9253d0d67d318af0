import { spawn, type ChildProcess } from 'node:child_process';
import { childEnv } from './query-mcp.js';

/**
 * `ragdesk serve` on a free port over `dataDir` (`cli.args`: how to run the CLI), once it says where it listens and
 * its owner token; offline, no key or data dir inherited (childEnv).
 */
export function startServe(dataDir: string, cli: { args: string[] }): Promise<{ proc: ChildProcess; url: string; token: string }> {
  const proc = spawn(process.execPath, [...cli.args, 'serve', '--data-dir', dataDir, '--port', '0'], {
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 60_000);
    const exited = (code: number | null) => reject(new Error(`serve exited (${code}): ${out}`));
    proc.once('exit', exited);
    const read = (d: Buffer) => {
      out += d.toString();
      const port = /listening on http:\/\/\S+:(\d+)/.exec(out)?.[1];
      const token = /owner token: (\S+)/.exec(out)?.[1];
      if (port && token) {
        clearTimeout(timer);
        proc.off('exit', exited);
        // What it prints later is read and dropped (a full pipe would block the server).
        proc.stdout!.off('data', read);
        proc.stdout!.resume();
        resolve({ proc, url: `http://127.0.0.1:${port}`, token });
      }
    };
    proc.stdout!.on('data', read);
  });
}

/** Stops a server startServe started (SIGTERM; SIGKILL after 15 s). */
export function stopServe(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => proc.kill('SIGKILL'), 15_000);
    proc.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}
