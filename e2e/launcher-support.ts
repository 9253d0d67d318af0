import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'vitest';
import { buildFixtureModel } from '../src/core/embed/fixture-model.js';

/**
 * Helpers of the install and launcher e2e tests: start ragdesk the way an MCP client config does (a command with
 * args, a minimal environment, the client's own working directory) and run an agent's workflow through the SDK.
 */

export const NODE_DIR = path.dirname(process.execPath);

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * The environment an MCP client gives a stdio server: HOME and PATH, nothing of ours (no RAGDESK_*, no
 * NODE_OPTIONS, no tsx). HOME is a temp dir, so the default data dir (~/.config/ragdesk) is the test's own.
 */
export function clientEnv(home: string, pathDirs: string[]): Record<string, string> {
  return {
    HOME: home,
    PATH: pathDirs.join(path.delimiter),
    ...(process.platform === 'win32' ? { APPDATA: path.join(home, 'AppData') } : {}),
  };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command to completion (no shell), with a bound on its time. */
export function runCommand(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string; timeoutMs?: number },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface McpSession {
  client: Client;
  /** The spawned process (a launcher that `exec`s keeps its pid). */
  pid: number | null;
  stderr(): string;
  close(): Promise<void>;
}

/** The official SDK client spawning `command args` exactly as a client config names them. */
export async function connectStdio(
  entry: { command: string; args: string[]; env?: Record<string, string> },
  options: { env: Record<string, string>; cwd: string },
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    env: { ...options.env, ...(entry.env ?? {}) },
    cwd: options.cwd,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'e2e-install', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`${entry.command} ${entry.args.join(' ')} did not start an MCP server: ${String(e)}\n--- stderr ---\n${err}`);
  }
  return { client, pid: transport.pid, stderr: () => err, close: () => client.close() };
}

/** A tool result's structured payload (or its JSON text). */
export function payload<T = Record<string, unknown>>(result: unknown): T {
  const r = result as { structuredContent?: unknown; content?: { type: string; text?: string }[]; isError?: boolean };
  if (r.isError) throw new Error(`tool error: ${r.content?.[0]?.text ?? JSON.stringify(r)}`);
  if (r.structuredContent) return r.structuredContent as T;
  return JSON.parse(r.content?.[0]?.text ?? '{}') as T;
}

/** The fixture embedding model (built, never downloaded) in `dir`. */
export async function fixtureModel(dir: string): Promise<string> {
  return (await buildFixtureModel(path.join(dir, 'fixture-model'))).dir;
}

interface Hit {
  doc_id: string;
  text: string;
}

/**
 * An agent's first minutes with a KB: list the tools, add a document, find it again by meaning and by words.
 * `kb` must exist (KBs are created by people: CLI or app). Returns the search hits.
 */
export async function agentWorkflow(client: Client, kb: string, docId = 'harbor-fees'): Promise<Hit[]> {
  const tools = (await client.listTools()).tools.map((t) => t.name);
  expect(tools).toEqual(expect.arrayContaining(['list_accessible_kbs', 'search_kb', 'add_document', 'get_document']));
  const kbs = payload<{ kbs: { kb_id: string }[] }>(await client.callTool({ name: 'list_accessible_kbs', arguments: {} }));
  expect(kbs.kbs.map((k) => k.kb_id)).toContain(kb);
  const added = payload<{ status: string }>(
    await client.callTool({
      name: 'add_document',
      arguments: {
        kb_id: kb,
        doc_id: docId,
        title: 'Harbor fees',
        content: `Demurrage is charged per container per day after the free period at the harbor terminal (note ${docId}).`,
      },
    }),
  );
  expect(added.status).toBe('added');
  const found = payload<{ hits: Hit[] }>(
    await client.callTool({ name: 'search_kb', arguments: { kb_id: kb, query: 'demurrage container' } }),
  );
  expect(found.hits.map((h) => h.doc_id)).toContain(docId);
  expect(found.hits[0]!.text).toContain('Demurrage');
  return found.hits;
}
