import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../src/mcp/test-support.js';
import { childEnv, CLI, ROOT, seededFixture } from './mcp-helpers.js';

let fx: Fixture;

beforeAll(async () => {
  fx = await seededFixture('ragdesk-e2e-inspector-');
});

afterAll(() => fx?.cleanup());

/**
 * `npx @modelcontextprotocol/inspector --cli <command> --method …`: the inspector's CLI mode (no web UI, no
 * browser) spawning `ragdesk mcp`. `--offline` keeps npx on the locally installed inspector.
 */
function inspector(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'npx',
      ['--offline', '@modelcontextprotocol/inspector', '--cli', process.execPath, ...CLI, 'mcp', '--data-dir', fx.dataDir, ...args],
      {
        cwd: ROOT,
        env: childEnv({ BROWSER: 'none', MCP_AUTO_OPEN_ENABLED: 'false' }),
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('MCP Inspector CLI against ragdesk mcp', () => {
  it('lists the tools', async () => {
    const res = await inspector(['--method', 'tools/list']);
    expect(res.code, res.err).toBe(0);
    const tools = (JSON.parse(res.out) as { tools: Array<{ name: string; annotations?: { readOnlyHint?: boolean } }> }).tools;
    expect(tools).toHaveLength(13);
    expect(tools.find((t) => t.name === 'search_kb')?.annotations?.readOnlyHint).toBe(true);
  });

  it('calls search_kb with typed arguments', async () => {
    const res = await inspector([
      '--method',
      'tools/call',
      '--tool-name',
      'search_kb',
      '--tool-arg',
      'kb_id=alpha',
      '--tool-arg',
      'query=heart disease',
      '--tool-arg',
      'top_k=2',
      '--tool-arg',
      'filter_expr=year__gte=2020',
    ]);
    expect(res.code, res.err).toBe(0);
    const result = JSON.parse(res.out) as { isError?: boolean; structuredContent: { hits: Array<{ doc_id: string }> } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.hits[0]!.doc_id).toBe('heart');
    expect(result.structuredContent.hits.length).toBeLessThanOrEqual(2);
  });

  it('reads resources and prompts', async () => {
    const resources = await inspector(['--method', 'resources/list']);
    expect(resources.code, resources.err).toBe(0);
    expect(resources.out).toContain('ragdesk://kb/alpha/doc/heart');
    const prompts = await inspector([
      '--method',
      'prompts/get',
      '--prompt-name',
      'answer_with_citations',
      '--prompt-args',
      'question=What is a customs duty?',
    ]);
    expect(prompts.code, prompts.err).toBe(0);
    expect(prompts.out).toContain('search_kb');
  });
});
