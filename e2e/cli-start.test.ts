import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataPaths } from '../src/core/config/data-dir.js';
import { isPidAlive } from '../src/core/config/lock.js';
import { eventually, tempDir } from '../src/core/test-support.js';
import { ROOT } from './cli-support.js';

/**
 * `npm start` (scripts/start.js, headless here: `ragdesk serve`) stopped any way leaves no server behind (issue 8).
 * Needs the build (`npm test` builds first), as `npm start` itself does.
 */

function start(command: string, args: string[]): { proc: ChildProcess; dataDir: string; output: () => string } {
  const dataDir = tempDir('ragdesk-start-');
  const proc = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      RAGDESK_DATA_DIR: dataDir,
      XDG_CONFIG_HOME: tempDir('ragdesk-start-config-'),
      RAGDESK_HEADLESS: '1',
      RAGDESK_OFFLINE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { proc, dataDir, output: () => out };
}

/** The pid of the `ragdesk serve` that owns the data dir, once it listens. */
async function serverPid(dataDir: string, output: () => string): Promise<number> {
  let pid = 0;
  await eventually(async () => {
    expect(output()).toMatch(/listening on http/);
    pid = (JSON.parse(fs.readFileSync(dataPaths(dataDir).lock, 'utf8')) as { pid: number }).pid;
  }, 120_000);
  return pid;
}

const gone = (pid: number) => eventually(async () => expect(isPidAlive(pid)).toBe(false), 15_000);

describe('npm start leaves no orphan', () => {
  it.skipIf(!fs.existsSync(path.join(ROOT, 'out/main/cli.js')))(
    'killing npm (it forwards no signal) stops the server too',
    async () => {
      const s = start('npm', ['start', '--silent', '--', '--port', '0']);
      const server = await serverPid(s.dataDir, s.output);
      expect(server).not.toBe(s.proc.pid);
      s.proc.kill('SIGTERM');
      await gone(server);
      expect(fs.existsSync(dataPaths(s.dataDir).lock)).toBe(false);
    },
    180_000,
  );

  it.skipIf(!fs.existsSync(path.join(ROOT, 'out/main/cli.js')))(
    'scripts/start.js forwards SIGTERM; killed with -9, the server notices and stops',
    async () => {
      const a = start(process.execPath, [path.join(ROOT, 'scripts/start.js'), '--port', '0']);
      const serverA = await serverPid(a.dataDir, a.output);
      a.proc.kill('SIGTERM');
      await gone(serverA);
      const b = start(process.execPath, [path.join(ROOT, 'scripts/start.js'), '--port', '0']);
      const serverB = await serverPid(b.dataDir, b.output);
      b.proc.kill('SIGKILL');
      await gone(serverB);
      expect(fs.existsSync(dataPaths(b.dataDir).lock)).toBe(false);
    },
    240_000,
  );
});
