import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, type CallToolResult, type CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { OWNER, type Principal } from '../core/auth/scope.js';
import { Core } from '../core/core.js';
import { buildFixtureModel } from '../core/embed/fixture-model.js';
import { LocalBackend } from './local-backend.js';
import { callRecorder, type RecorderOptions } from './recorder.js';
import { linkInMemory } from './rehearsal.js';
import { createMcpServer } from './server.js';

/** Test support shared by the MCP/HTTP unit tests and the e2e suites: a temp data dir, the fixture model, seed KBs. */

export interface Fixture {
  root: string;
  dataDir: string;
  modelDir: string;
  cleanup(): void;
}

export async function makeFixture(prefix = 'ragdesk-mcp-'): Promise<Fixture> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const modelDir = path.join(root, 'fixture-model');
  await buildFixtureModel(modelDir, { dim: 32 });
  return { root, dataDir: path.join(root, 'data'), modelDir, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

export function openTestCore(dataDir: string, lock = true): Promise<Core> {
  return Core.open({ dataDir, allowDownload: false, lock });
}

export const SEED = {
  alpha: [
    {
      doc_id: 'heart',
      title: 'Heart disease',
      content: 'Heart disease is a cardiovascular illness. Patients with high blood pressure have a higher risk and should see a doctor.',
      metadata: { year: 2021, tags: ['health', 'medical'] },
      source: 'wiki',
    },
    {
      doc_id: 'customs',
      title: 'Customs duties',
      content: 'Customs duties are a tax on imported goods at the border. The trade law sets the duty for each import.',
      metadata: { year: 2019, tags: ['law'] },
      source: 'gov',
    },
    {
      doc_id: 'coffee',
      title: 'Coffee and tea',
      content: 'Coffee and tea are the drinks people drink most. Many cook food in the kitchen with milk and bread.',
      metadata: { year: 2023, tags: ['food'] },
      source: 'blog',
    },
  ],
  beta: [
    {
      doc_id: 'poshlina',
      title: 'Таможенные пошлины',
      content: 'Таможенные пошлины на товары при импорте. Закон и налоги на границе.',
      metadata: { year: 2022 },
      source: 'ru',
    },
  ],
  secret: [
    {
      doc_id: 'bank',
      title: 'Bank report',
      content: 'The bank report shows money and market prices for the business year.',
      metadata: { year: 2024 },
      source: 'internal',
    },
  ],
} as const;

/** Create KBs alpha, beta and secret with the fixture model and a few documents each. */
export async function seedKbs(core: Core, modelDir: string): Promise<void> {
  for (const [kbId, docs] of Object.entries(SEED)) {
    await core.client.createKb({ kb_id: kbId, name: `KB ${kbId}`, description: `The ${kbId} knowledge base`, embedding_model: modelDir });
    for (const d of docs)
      await core.client.addDocument({ kb_id: kbId, ...d, metadata: { ...d.metadata } as Record<string, number | string[]> });
  }
}

/** A temp data dir with KBs alpha, beta and secret seeded and the fixture model loaded; `close` removes it all. */
export async function seededCore(prefix?: string): Promise<{ fx: Fixture; core: Core; close(): Promise<void> }> {
  const fx = await makeFixture(prefix);
  const core = await openTestCore(fx.dataDir);
  await seedKbs(core, fx.modelDir);
  await core.ctx.models.getEmbedder(fx.modelDir);
  return {
    fx,
    core,
    async close() {
      await core.close();
      fx.cleanup();
    },
  };
}

export interface MemoryPair {
  client: Client;
  close(): Promise<void>;
}

/** An SDK client talking to a fresh ragdesk MCP server in this process (InMemoryTransport). */
export async function memoryClient(
  core: Core,
  options: {
    principal?: () => Principal | undefined;
    name?: string;
    sampling?: (text: string) => string;
    recorder?: Omit<RecorderOptions, 'transport' | 'keyName'>;
  } = {},
): Promise<MemoryPair> {
  const principal = options.principal ?? (() => OWNER);
  const server = createMcpServer({
    backend: async () => new LocalBackend({ core: () => core, principal }),
    ...(options.recorder
      ? { onCall: callRecorder({ ...options.recorder, transport: 'memory', keyName: () => principal()?.name ?? 'revoked' }) }
      : {}),
  });
  const client = new Client(
    { name: options.name ?? 'memory-test', version: '1.0.0' },
    { capabilities: options.sampling ? { sampling: {} } : {} },
  );
  if (options.sampling) {
    const answer = options.sampling;
    client.setRequestHandler(CreateMessageRequestSchema, async (req): Promise<CreateMessageResult> => {
      const first = req.params.messages[0]?.content;
      const text = first && !Array.isArray(first) && first.type === 'text' ? first.text : '';
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: answer(text) } };
    });
  }
  return { client, close: await linkInMemory(server, client) };
}

/** The JSON a tool result carries (structured content when it succeeded, the error body when it failed). */
export function payload<T = Record<string, unknown>>(result: unknown): T {
  const r = result as CallToolResult;
  if (r.structuredContent) return r.structuredContent as T;
  const first = r.content?.[0];
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as T;
}
