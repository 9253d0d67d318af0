import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentConfigs, headlessStdio } from '../src/renderer/lib/agent-configs.js';
import { agentWorkflow, clientEnv, connectStdio, fixtureModel, NODE_DIR, runCommand, tempDir } from './launcher-support.js';

/**
 * The npm package as a user gets it: `npm pack`, then `npm install -g` of the tarball into a temp prefix (from the
 * registry, reusing npm's cache; onnxruntime-node's optional CUDA download skipped with ONNXRUNTIME_NODE_INSTALL=skip,
 * as the README tells users behind a proxy). Then ragdesk is started exactly as an MCP client config does: the
 * command and args the Connect page shows (`ragdesk mcp --data-dir …`), `npx ragdesk mcp` from the README, and the
 * bundled launcher inside the install, each with a client's minimal environment and a foreign working directory,
 * and the official SDK client lists the tools, adds a document and searches it.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const win = process.platform === 'win32';
const npm = win ? 'npm.cmd' : 'npm';
const SYSTEM_PATH = win ? [] : ['/usr/bin', '/bin'];

let dir: string;
let prefix: string;
let tarball: string;
let home: string;
let cwd: string;
let dataDir: string;
let env: Record<string, string>;
let version: string;

const binDir = () => (win ? prefix : path.join(prefix, 'bin'));
const installed = () => (win ? path.join(prefix, 'node_modules', 'ragdesk') : path.join(prefix, 'lib', 'node_modules', 'ragdesk'));

beforeAll(async () => {
  if (!fs.existsSync(path.join(ROOT, 'out', 'main', 'cli.js')))
    throw new Error('out/ is missing: run `npm run build` first (npm test does)');
  dir = tempDir('ragdesk-install-');
  prefix = path.join(dir, 'prefix');
  home = path.join(dir, 'home');
  cwd = path.join(dir, 'elsewhere');
  dataDir = path.join(dir, 'data');
  for (const d of [home, cwd]) fs.mkdirSync(d);
  version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  // The build is already there (npm test builds first): pack it as it is.
  const packed = JSON.parse(
    execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', shell: win }),
  ) as { filename: string; size: number; unpackedSize: number }[];
  tarball = path.join(dir, packed[0]!.filename);
  const install = await runCommand(
    npm,
    ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error', tarball],
    { env: { ...stringEnv(), ONNXRUNTIME_NODE_INSTALL: 'skip' }, cwd: dir, timeoutMs: 540_000 },
  );
  if (install.code !== 0) throw new Error(`npm install -g of the tarball failed (${install.code}):\n${install.stdout}\n${install.stderr}`);
  env = clientEnv(home, [binDir(), NODE_DIR, ...SYSTEM_PATH]);
  const model = await fixtureModel(dir);
  const created = await runCommand(win ? 'ragdesk.cmd' : 'ragdesk', ['--data-dir', dataDir, 'kb', 'create', 'notes', '--model', model], {
    env,
    cwd,
  });
  if (created.code !== 0) throw new Error(`ragdesk kb create failed:\n${created.stdout}\n${created.stderr}`);
}, 600_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function stringEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('RAGDESK_')) out[k] = v;
  return out;
}

describe('ragdesk installed from the packed tarball', () => {
  it('installs the `ragdesk` command, and nothing of the desktop app’s development tools', async () => {
    const v = await runCommand(win ? 'ragdesk.cmd' : 'ragdesk', ['--version'], { env, cwd });
    expect(v.stdout.trim()).toBe(version);
    const modules = path.join(installed(), 'node_modules');
    for (const dev of ['electron', 'react', 'react-dom', '@mantine/core', 'vite', 'typescript', 'electron-builder']) {
      expect(fs.existsSync(path.join(modules, dev)), `${dev} was installed`).toBe(false);
    }
    expect(fs.existsSync(path.join(installed(), 'out', 'renderer', 'index.html'))).toBe(true);
  });

  it('serves MCP started as the Connect page’s configs start it (ragdesk mcp --data-dir …)', async () => {
    const configs = agentConfigs({ stdio: headlessStdio(dataDir), httpUrl: null, token: 'unused' });
    const entries = configs.map((c) => {
      const parsed = JSON.parse(c.text) as { mcpServers?: Record<string, unknown>; servers?: Record<string, unknown> };
      return (parsed.mcpServers ?? parsed.servers)!.ragdesk as { command: string; args: string[] };
    });
    expect(entries.map((e) => [e.command, e.args])).toEqual(configs.map(() => ['ragdesk', ['mcp', '--data-dir', dataDir]]));
    const entry = entries[0]!;
    const mcp = await connectStdio(win ? { ...entry, command: 'ragdesk.cmd' } : entry, { env, cwd });
    try {
      await agentWorkflow(mcp.client, 'notes', 'via-connect-page');
    } finally {
      await mcp.close();
    }
  });

  it('serves MCP through `npx ragdesk mcp` (the README’s command) with the package installed globally', async () => {
    const npx = { command: win ? 'npx.cmd' : 'npx', args: ['-y', 'ragdesk', 'mcp', '--data-dir', dataDir] };
    // npx finds the global install through npm's prefix setting, as it does for a user's own global installs.
    const mcp = await connectStdio(npx, { env: { ...env, npm_config_prefix: prefix, npm_config_update_notifier: 'false' }, cwd });
    try {
      await agentWorkflow(mcp.client, 'notes', 'via-npx');
    } finally {
      await mcp.close();
    }
  });

  it.skipIf(win)('serves MCP through the bundled launcher of the install (plain node)', async () => {
    const launcher = path.join(installed(), 'resources', 'bin', 'ragdesk-mcp');
    const mcp = await connectStdio({ command: launcher, args: ['--data-dir', dataDir] }, { env, cwd });
    try {
      await agentWorkflow(mcp.client, 'notes', 'via-launcher');
    } finally {
      await mcp.close();
    }
  });
});
