import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPaths } from '../src/main/app-paths.js';
import { stdioCommand } from '../src/main/mcp-config.js';
import { agentWorkflow, clientEnv, connectStdio, fixtureModel, NODE_DIR, payload, runCommand, tempDir } from './launcher-support.js';

/**
 * resources/bin/ragdesk-mcp from the project folder, started as the desktop app's Connect page names it (its absolute
 * path, no args for the default data dir) by the official MCP SDK client with a client's minimal environment and a
 * foreign working directory: it serves MCP itself, and bridges to a running owner. The packaged app's layout is
 * covered by e2e/package-app.test.ts, a headless npm install by e2e/package-install.test.ts.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'out', 'main', 'cli.js');
const SYSTEM_PATH = process.platform === 'win32' ? [] : ['/usr/bin', '/bin'];

let dir: string;
let home: string;
let cwd: string;
let model: string;
let env: Record<string, string>;

/** The command the Connect page shows when the app runs from this project folder. */
const connectCommand = (platform: NodeJS.Platform = process.platform) => {
  const paths = appPaths(ROOT, undefined, {}, platform);
  return stdioCommand({ execPath: '/unused/electron', mainEntry: paths.mainEntry, launcher: paths.launcher });
};

beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error('out/main/cli.js is missing: run `npm run build` first (npm test does)');
  dir = tempDir('ragdesk-launcher-');
  home = path.join(dir, 'home');
  cwd = path.join(dir, 'elsewhere');
  fs.mkdirSync(home);
  fs.mkdirSync(cwd);
  model = await fixtureModel(dir);
  env = clientEnv(home, [NODE_DIR, ...SYSTEM_PATH]);
  const created = await runCommand(process.execPath, [CLI, 'kb', 'create', 'notes', '--model', model], { env, cwd });
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
}, 120_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('resources/bin/ragdesk-mcp from the project folder', () => {
  it('is what the Connect page names, and it answers tools/list and a search over stdio', async () => {
    const entry = connectCommand();
    expect(entry).toEqual({ command: path.join(ROOT, 'resources', 'bin', 'ragdesk-mcp'), args: [], env: {} });
    const mcp = await connectStdio(entry, { env, cwd });
    try {
      await agentWorkflow(mcp.client, 'notes', 'from-project');
      // It opened the store itself: the process the client spawned (the launcher exec'd into node) holds the lock.
      const lock = JSON.parse(fs.readFileSync(path.join(home, '.config', 'ragdesk', 'ragdesk.lock'), 'utf8')) as { pid: number };
      expect(lock.pid).toBe(mcp.pid);
    } finally {
      await mcp.close();
    }
  });

  it('bridges to a running owner (ragdesk serve) instead of opening the store', async () => {
    const served = await serve();
    try {
      const lockFile = path.join(home, '.config', 'ragdesk', 'ragdesk.lock');
      expect((JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { pid: number }).pid).toBe(served.proc.pid);
      const mcp = await connectStdio(connectCommand(), { env, cwd });
      try {
        await agentWorkflow(mcp.client, 'notes', 'through-the-owner');
        const docs = payload<{ documents: { doc_id: string }[] }>(
          await mcp.client.callTool({ name: 'list_documents', arguments: { kb_id: 'notes' } }),
        );
        expect(docs.documents.map((d) => d.doc_id)).toEqual(expect.arrayContaining(['from-project', 'through-the-owner']));
      } finally {
        await mcp.close();
      }
      // The owner kept the lock, and its own API sees what the launcher added.
      expect((JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { pid: number }).pid).toBe(served.proc.pid);
      const res = await fetch(`${served.url}/api/getDocument`, {
        method: 'POST',
        headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kb_id: 'notes', doc_id: 'through-the-owner' }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { content: string }).content).toContain('Demurrage');
    } finally {
      expect(await served.stop()).toBe(0);
    }
  });

  it('says what is missing when there is neither an app executable nor node on PATH', async () => {
    const bare = clientEnv(
      home,
      SYSTEM_PATH.filter((d) => !fs.existsSync(path.join(d, 'node'))),
    );
    const bin = path.join(dir, 'bin-no-node');
    fs.mkdirSync(bin, { recursive: true });
    // The launcher needs dirname; nothing else from PATH.
    fs.symlinkSync(fs.existsSync('/usr/bin/dirname') ? '/usr/bin/dirname' : '/bin/dirname', path.join(bin, 'dirname'));
    const run = await runCommand(path.join(ROOT, 'resources', 'bin', 'ragdesk-mcp'), [], { env: { ...bare, PATH: bin }, cwd });
    expect(run.code).toBe(127);
    expect(run.stderr).toMatch(/^ragdesk-mcp: no app executable next to .* and no `node` on PATH/);
  });
});

describe.runIf(process.platform === 'win32')('resources/bin/ragdesk-mcp.cmd from the project folder', () => {
  it('is what the Connect page names on Windows, and it answers tools/list and a search over stdio', async () => {
    const entry = connectCommand('win32');
    expect(entry.command).toBe(path.join(ROOT, 'resources', 'bin', 'ragdesk-mcp.cmd'));
    const mcp = await connectStdio(entry, { env: { ...env, SystemRoot: process.env.SystemRoot ?? 'C:\\Windows' }, cwd });
    try {
      await agentWorkflow(mcp.client, 'notes', 'from-cmd');
    } finally {
      await mcp.close();
    }
  });
});

describe.skipIf(process.platform === 'win32')('resources/bin/ragdesk-mcp.cmd', () => {
  it.skip('runs only on Windows (cmd.exe); it resolves the same layout as ragdesk-mcp: packaged exe, app.asar, project Electron, node', () =>
    undefined);
});

interface Served {
  proc: ChildProcess;
  url: string;
  token: string;
  stop(): Promise<number | null>;
}

/** `ragdesk serve --port 0` from the build, with the same client environment (so the same default data dir). */
function serve(): Promise<Served> {
  const proc = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 60_000);
    proc.once('exit', (code) => reject(new Error(`serve exited (${code}):\n${out}`)));
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+) /.exec(out)?.[1];
      const token = /owner token: (\S+)/.exec(out)?.[1];
      if (!url || !token) return;
      clearTimeout(timer);
      resolve({
        proc,
        url,
        token,
        stop: () => {
          if (proc.exitCode === null) proc.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}
