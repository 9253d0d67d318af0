import { PassThrough } from 'node:stream';
import { LATEST_PROTOCOL_VERSION as SDK_LATEST, SUPPORTED_PROTOCOL_VERSIONS as SDK_SUPPORTED } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './server-info.js';
import { startStdioFront, type RunningFront } from './stdio-front.js';
import { startStdioServer, type RunningStdio } from './stdio.js';

type Line = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };

/** A session over in-memory stdio: the front, or the SDK server alone (what the front must answer like). */
function session(kind: 'front' | 'sdk') {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: Line[] = [];
  let text = '';
  stdout.on('data', (d: Buffer) => {
    text += d.toString('utf8');
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
      lines.push(JSON.parse(text.slice(0, nl)) as Line);
      text = text.slice(nl + 1);
    }
  });
  const options = {
    stdin,
    stdout,
    resolve: () => Promise.reject(new Error('no backend in this test')),
  };
  const front: RunningFront | undefined = kind === 'front' ? startStdioFront({ stdin, stdout, prepare: () => options }) : undefined;
  const sdk: Promise<RunningStdio> | undefined = kind === 'sdk' ? startStdioServer(options) : undefined;
  const send = (m: object | string | Buffer) => stdin.write(typeof m === 'string' || Buffer.isBuffer(m) ? m : `${JSON.stringify(m)}\n`);
  const answerTo = async (id: unknown): Promise<Line> => {
    await expect.poll(() => lines.some((l) => l.id === id), { timeout: 10_000 }).toBe(true);
    return lines.find((l) => l.id === id)!;
  };
  const server = async () => (front ? await front.server! : await sdk!);
  return {
    front,
    lines,
    send,
    answerTo,
    server,
    close: async () => {
      stdin.end();
      await (front ? front.close() : (await sdk!).close());
    },
  };
}

const initialize = (id: unknown, protocolVersion = '2025-06-18', capabilities: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'probe', version: '1.2' } },
});
const request = (id: unknown, method: string, params?: object) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

let open: Array<ReturnType<typeof session>> = [];
const start = (kind: 'front' | 'sdk') => {
  const s = session(kind);
  open.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

describe('the stdio front', () => {
  it('knows the SDK’s protocol versions', () => {
    expect(LATEST_PROTOCOL_VERSION).toBe(SDK_LATEST);
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_SUPPORTED);
  });

  it('answers initialize, tools/list and ping as the SDK server does, without loading it', async () => {
    for (const version of ['2025-11-25', '2025-06-18', '2024-11-05', '1999-01-01']) {
      const front = start('front');
      const sdk = start('sdk');
      for (const s of [front, sdk]) {
        s.send(initialize(1, version));
        s.send(request('p', 'ping'));
      }
      expect((await front.answerTo(1)).result).toEqual((await sdk.answerTo(1)).result);
      expect((await front.answerTo('p')).result).toEqual({});
      expect((await sdk.answerTo('p')).result).toEqual({});
      // Nothing asked for more than the front answers: the SDK server is not loaded.
      expect(front.front!.server).toBeUndefined();
      for (const s of [front, sdk]) s.send(request(2, 'tools/list', { cursor: 'x' }));
      expect((await front.answerTo(2)).result).toEqual((await sdk.answerTo(2)).result);
    }
  });

  it('hands every other line to the SDK server, which learns the client from the same initialize', async () => {
    const s = start('front');
    // One chunk: the front answers initialize and ping; the SDK server the listing it does not answer.
    s.send(
      [
        initialize(1, '2025-06-18', { sampling: {}, roots: { listChanged: true } }),
        INITIALIZED,
        request(2, 'prompts/list'),
        request(3, 'ping'),
      ]
        .map((m) => JSON.stringify(m))
        .join('\n') + '\n',
    );
    expect((await s.answerTo(3)).result).toEqual({});
    const prompts = await s.answerTo(2);
    expect((prompts.result!.prompts as unknown[]).length).toBeGreaterThan(0);
    const { server } = await s.server();
    expect(server.server.getClientCapabilities()).toEqual({ sampling: {}, roots: { listChanged: true } });
    expect(server.server.getClientVersion()).toEqual({ name: 'probe', version: '1.2' });
    // The SDK server's answer to the replayed initialize is not sent: one answer per request.
    expect(s.lines.filter((l) => l.id === 1)).toHaveLength(1);
    // After the handover the SDK server answers tools/list itself, the same list.
    s.send(request(4, 'tools/list'));
    const sdk = start('sdk');
    sdk.send(request(4, 'tools/list'));
    expect((await s.answerTo(4)).result).toEqual((await sdk.answerTo(4)).result);
  });

  it('keeps lines cut anywhere, CRLF endings and bytes of a character split across chunks', async () => {
    const s = start('front');
    const bytes = Buffer.from(
      `${JSON.stringify(initialize(1))}\r\n${JSON.stringify(request(2, 'prompts/get', { name: 'поиск-中文', arguments: {} }))}\n`,
      'utf8',
    );
    // Raw byte slices: a 7-byte stride cuts lines, the CRLF and the Cyrillic and CJK characters.
    for (let i = 0; i < bytes.length; i += 7) s.send(bytes.subarray(i, i + 7));
    expect((await s.answerTo(1)).result!.protocolVersion).toBe('2025-06-18');
    const got = await s.answerTo(2);
    // The SDK server read the name intact: its error names the prompt.
    expect(got.error!.message).toContain('поиск-中文');
  });

  it('passes malformed lines and a second initialize to the SDK server, and keeps answering', async () => {
    const s = start('front');
    s.send(initialize(1));
    s.send('{not json\n');
    s.send(initialize(2, '2024-11-05'));
    s.send(request(3, 'resources/templates/list'));
    expect((await s.answerTo(1)).result!.protocolVersion).toBe('2025-06-18');
    expect((await s.answerTo(2)).result!.protocolVersion).toBe('2024-11-05');
    expect((await s.answerTo(3)).result!.resourceTemplates).toBeDefined();
    expect(s.lines.filter((l) => l.id === 1)).toHaveLength(1);
    expect(s.lines.filter((l) => l.id === 2)).toHaveLength(1);
  });

  it('hands over an initialize the SDK schema would refuse, for the SDK server to refuse', async () => {
    const s = start('front');
    s.send({
      ...initialize(1),
      params: { protocolVersion: '2025-06-18', capabilities: { sampling: 5 }, clientInfo: { name: 'x', version: '1' } },
    });
    expect((await s.answerTo(1)).error).toBeDefined();
    expect(s.lines.filter((l) => l.id === 1)).toHaveLength(1);
  });

  it('closes when the client leaves after listing the tools, the SDK server loaded in the background', async () => {
    const s = start('front');
    s.send(initialize(1));
    s.send(request(2, 'tools/list'));
    await s.answerTo(2);
    s.close().catch(() => undefined);
    await s.front!.closed;
    open = [];
  });
});
