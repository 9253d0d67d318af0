import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeFixture, openTestCore, seedKbs, type Fixture } from '../src/mcp/test-support.js';

/** The repository root: e2e tests spawn the real CLI from the sources (`node --import tsx src/cli/index.ts`). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = ['--import', 'tsx', path.join(ROOT, 'src/cli/index.ts')];

/** No test downloads anything: models are off the network, the fixture model is a local folder. */
export const OFFLINE_ENV = { RAGDESK_OFFLINE: '1', HF_HUB_OFFLINE: '1' };

export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'RAGDESK_API_KEY' && k !== 'RAGDESK_DATA_DIR') env[k] = v;
  return { ...env, ...OFFLINE_ENV, ...extra };
}

/** A temp data dir with the fixture model and the seed KBs (alpha, beta, secret, broken), closed again so the CLI can open it. */
export async function seededFixture(prefix: string): Promise<Fixture> {
  const fx = await makeFixture(prefix);
  const core = await openTestCore(fx.dataDir);
  await seedKbs(core, fx.modelDir);
  // A KB whose model folder is gone afterwards: vector search there is model_unavailable.
  const vanishing = path.join(fx.root, 'vanishing-model');
  fs.cpSync(fx.modelDir, vanishing, { recursive: true });
  await core.client.createKb({ kb_id: 'broken', embedding_model: vanishing });
  await core.client.addDocument({ kb_id: 'broken', doc_id: 'orphan', content: 'a document whose model is gone' });
  await core.close();
  fs.rmSync(vanishing, { recursive: true, force: true });
  return fx;
}

/** Run the CLI to completion (e.g. `keys create`). */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function createKey(dataDir: string, name: string, rights: string[] = []): Promise<string> {
  const res = await runCli(['--data-dir', dataDir, 'keys', 'create', name, ...rights, '--json']);
  if (res.code !== 0) throw new Error(`keys create failed: ${res.stderr}`);
  return (JSON.parse(res.stdout) as { key: string }).key;
}

export interface Served {
  proc: ChildProcess;
  port: number;
  url: string;
  token: string;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Start `ragdesk serve --port 0` and read the port and the owner token it prints. */
export function startServe(dataDir: string, args: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const proc = spawn(process.execPath, [...CLI, 'serve', '--data-dir', dataDir, '--port', '0', ...args], { cwd: ROOT, env: childEnv(env) });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}\n${err}`)), 60_000);
    const early = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}): ${out}\n${err}`));
    };
    proc.once('exit', early);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const port = /listening on http:\/\/[^\s]+:(\d+)/.exec(out)?.[1];
      const token = /owner token: (\S+)/.exec(out)?.[1];
      if (port && token) {
        clearTimeout(timer);
        proc.off('exit', early);
        resolve({
          proc,
          port: Number(port),
          url: `http://127.0.0.1:${port}`,
          token,
          stderr: () => err,
          async stop() {
            if (proc.exitCode === null) proc.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
  });
}

export interface Connected {
  client: Client;
  close(): Promise<void>;
  stderr(): string;
}

/** The official SDK client over stdio, spawning `ragdesk mcp`. */
export async function stdioClient(
  dataDir: string,
  options: { env?: Record<string, string>; name?: string; args?: string[]; capabilities?: Record<string, unknown> } = {},
): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI, 'mcp', '--data-dir', dataDir, ...(options.args ?? [])],
    cwd: ROOT,
    env: childEnv(options.env),
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: options.name ?? 'e2e-stdio', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

/** The official SDK client over Streamable HTTP with a bearer token. */
export async function httpClient(url: string, token: string, name = 'e2e-http'): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => '',
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}
