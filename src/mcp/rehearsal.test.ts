import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER } from '../core/auth/scope.js';
import type { Core } from '../core/core.js';
import { LocalBackend } from './local-backend.js';
import { rehearseSearch, rehearseToolCall, SEARCH_REHEARSALS } from './rehearsal.js';
import { memoryClient, payload, seededCore, type MemoryPair } from './test-support.js';

let seeded: Awaited<ReturnType<typeof seededCore>>;
let core: Core;
let pair: MemoryPair;

beforeAll(async () => {
  seeded = await seededCore('ragdesk-rehearsal-');
  core = seeded.core;
  pair = await memoryClient(core);
});

afterAll(async () => {
  await pair?.close();
  await seeded?.close();
});

describe('rehearseToolCall', () => {
  it('answers a search_kb call through a server and client of its own, as an agent’s call is answered', async () => {
    const backend = new LocalBackend({ core: () => core, principal: () => OWNER });
    const args = { kb_id: 'alpha', query: 'blood pressure risk', top_k: 3, mode: 'hybrid', use_rerank: false };
    const rehearsed = await rehearseToolCall(backend, 'search_kb', args);
    expect(rehearsed.isError).toBeFalsy();
    const hits = payload<{ hits: Array<{ doc_id: string }> }>(rehearsed).hits;
    expect(hits[0]?.doc_id).toBe('heart');
    expect(payload(rehearsed)).toEqual(payload(await pair.client.callTool({ name: 'search_kb', arguments: args })));
  });

  it('fails as the server fails a call (so the rehearsal is logged as not done)', async () => {
    const backend = new LocalBackend({ core: () => core, principal: () => OWNER });
    const err = await rehearseToolCall(backend, 'search_kb', { kb_id: 'alpha', top_k: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
    const missing = await rehearseToolCall(backend, 'search_kb', { kb_id: 'nope', query: 'x' });
    expect(missing.isError).toBe(true);
  });

  it('rehearses search_kb with the query, then with the openings of the hits it found; a failure rejects', async () => {
    const backend = new LocalBackend({ core: () => core, principal: () => OWNER });
    const args = { kb_id: 'alpha', top_k: 3, mode: 'hybrid', use_rerank: false };
    const answers = await rehearseSearch(backend, args, 'blood pressure risk');
    expect(answers).toHaveLength(SEARCH_REHEARSALS);
    const texts = answers.map((a) => payload<{ hits: Array<{ text: string }> }>(a).hits.map((h) => h.text));
    // the second call searched the opening words of the first call's best hit, which finds that hit first
    expect(texts[1]![0]).toBe(texts[0]![0]);
    expect(answers.every((a) => !a.isError)).toBe(true);
    await expect(rehearseSearch(backend, { ...args, kb_id: 'nope' }, 'x')).rejects.toThrow(/search_kb failed/);
  });
});
