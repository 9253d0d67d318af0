import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronBinary, ensureElectron, failureMemoPath } from '../scripts/electron-binary.js';
import { tempDir } from './launcher-support.js';

/**
 * `npm start` on a machine without the Electron binary: the binary is fetched on first use (never by `npm ci`),
 * a failure is said once and remembered, and the app runs headless with the web console and the sample KB.
 */
const ROOT = path.resolve(import.meta.dirname, '..');

let dir: string;
beforeAll(() => {
  dir = tempDir('ragdesk-start-');
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project folder whose node_modules/electron installer fails like an unreachable host, or succeeds. */
function fakeProject(name: string, installer: 'fails' | 'works'): string {
  const root = path.join(dir, name);
  const pkg = path.join(root, 'node_modules', 'electron');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), '{"name":"p","version":"1.0.0"}');
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'electron', version: '40.10.1', main: 'index.js' }));
  // Like electron's own index.js: the executable's path once path.txt exists, else an error.
  fs.writeFileSync(
    path.join(pkg, 'index.js'),
    "const fs = require('fs'); const p = require('path'); const f = p.join(__dirname, 'path.txt');\n" +
      "if (!fs.existsSync(f)) throw new Error('Electron failed to install correctly');\n" +
      "module.exports = p.join(__dirname, 'dist', fs.readFileSync(f, 'utf8'));\n",
  );
  const count = path.join(root, 'installer-runs');
  fs.writeFileSync(
    path.join(pkg, 'install.js'),
    `require('fs').appendFileSync(${JSON.stringify(count)}, 'x');\n` +
      (installer === 'fails'
        ? "console.error('RequestError: getaddrinfo ENOTFOUND github.com\\n    at ClientRequest.<anonymous>'); process.exit(1);\n"
        : "const fs = require('fs'); fs.mkdirSync(__dirname + '/dist'); fs.writeFileSync(__dirname + '/dist/electron', ''); fs.writeFileSync(__dirname + '/path.txt', 'electron');\n"),
  );
  return root;
}

const runs = (root: string) =>
  fs.existsSync(path.join(root, 'installer-runs')) ? fs.readFileSync(path.join(root, 'installer-runs'), 'utf8').length : 0;

describe('the Electron binary, fetched on first use', () => {
  it('says why it is missing, remembers a failed download, and retries when asked', async () => {
    const root = fakeProject('offline', 'fails');
    expect(electronBinary(root)).toEqual({ why: 'the Electron binary has not been downloaded' });
    const fetches: string[] = [];
    const first = await ensureElectron(root, { env: {}, onFetch: (v) => fetches.push(v) });
    expect(first).toEqual({ why: 'Electron 40.10.1 could not be downloaded (getaddrinfo ENOTFOUND github.com)' });
    expect(fetches).toEqual(['40.10.1']);
    expect(fs.existsSync(failureMemoPath(root))).toBe(true);
    // The next start does not wait for the same failure again.
    const second = await ensureElectron(root, { env: {} });
    expect(second.why).toMatch(
      /^Electron 40\.10\.1 could not be downloaded \(getaddrinfo ENOTFOUND github\.com; tried .*, RAGDESK_FETCH_ELECTRON=1 retries now\)$/,
    );
    expect(runs(root)).toBe(1);
    await ensureElectron(root, { env: { RAGDESK_FETCH_ELECTRON: '1' } });
    expect(runs(root)).toBe(2);
    expect(await ensureElectron(root, { env: { RAGDESK_HEADLESS: '1' } })).toEqual({ why: 'RAGDESK_HEADLESS is set' });
    expect(runs(root)).toBe(2);
  });

  it('uses the binary once the download works', async () => {
    const root = fakeProject('online', 'works');
    const found = await ensureElectron(root, { env: {} });
    expect(found).toEqual({ path: path.join(root, 'node_modules', 'electron', 'dist', 'electron') });
    expect(await ensureElectron(root, { env: {} })).toEqual(found);
    expect(runs(root)).toBe(1);
  });
});

describe('npm start without a desktop window', () => {
  it('says once that it runs headless, and serves the web console with the sample KB', async () => {
    if (!fs.existsSync(path.join(ROOT, 'out', 'main', 'cli.js')))
      throw new Error('out/ is missing: run `npm run build` first (npm test does)');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('RAGDESK_')) env[k] = v;
    // RAGDESK_HEADLESS: never open a window, even where an Electron binary exists or could be fetched.
    Object.assign(env, {
      RAGDESK_DATA_DIR: path.join(dir, 'data'),
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      RAGDESK_OFFLINE: '1',
      HF_HUB_OFFLINE: '1',
      RAGDESK_HEADLESS: '1',
    });
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js'), '--port', '0'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm start did not serve:\n${out}`)), 180_000);
        child.once('exit', () => reject(new Error(`npm start exited:\n${out}`)));
        const check = () => {
          if (/owner token: \S+/.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout.on('data', check);
        child.stderr.on('data', check);
      });
      const headless = out.split('\n').filter((l) => /headless/.test(l));
      expect(headless).toEqual([
        'ragdesk: running headless, no desktop window: RAGDESK_HEADLESS is set. The web console below serves your knowledge bases, the sample KB (rag_data/) included.',
      ]);
      const url = /listening on (http:\/\/\S+) /.exec(out)![1]!;
      const token = /owner token: (\S+)/.exec(out)![1]!;
      expect((await fetch(`${url}/`)).status).toBe(200);
      const kbs = (await (
        await fetch(`${url}/api/listKbs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        })
      ).json()) as { kb_id: string; document_count: number }[];
      const sampleFiles = fs.readdirSync(path.join(ROOT, 'rag_data')).filter((f) => f !== 'README.md').length;
      expect(kbs).toEqual([expect.objectContaining({ kb_id: 'sample', document_count: sampleFiles })]);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 240_000);
});
