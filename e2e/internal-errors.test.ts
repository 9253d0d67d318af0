import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModels } from '../src/core/test-support.js';
import { payload } from '../src/mcp/test-support.js';
import { json, ragdesk } from './cli-support.js';
import { stdioClient } from './mcp-helpers.js';

/**
 * Processes that own the data dir answer an unexpected failure as every door does (`internal` with a reference)
 * and write its detail (message, file, stack) to stderr or their log under that reference. A one-shot command
 * keeps stdout for its output (one JSON document with --json); `ragdesk mcp` keeps stdout for the protocol.
 */
let dir: string;
const cli = (...args: string[]) => ragdesk(['--data-dir', path.join(dir, 'data'), ...args]);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-internal-errors-'));
  expect((await cli('kb', 'list')).code).toBe(0);
  // A sources file cut short (a full disk, a hand edit): opening the engine fails on JSON.parse.
  fs.writeFileSync(path.join(dir, 'data', 'sources.json'), '{"sources": [');
  // Another data dir whose KB has a health ledger cut short: reading its report fails inside an operation.
  const model = (await fixtureModels()).model;
  expect((await ragdesk(['--data-dir', path.join(dir, 'mcp-data'), 'kb', 'create', 'notes', '--model', model])).code).toBe(0);
  fs.mkdirSync(path.join(dir, 'mcp-data', 'health', 'notes'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'mcp-data', 'health', 'notes', '_files.json'), '{"files": [');
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('internal errors of the processes that own the data dir', () => {
  it('--json: the reference on stdout, the detail with its stack on stderr', async () => {
    const r = await cli('sources', 'list', '--json');
    expect(r.code).toBe(1);
    const { error } = json<{ error: { code: string; message: string; details: { ref: string } } }>(r);
    expect(error.code).toBe('internal');
    expect(error.message).toBe(`internal error (ref ${error.details.ref}); the details are in ragdesk's log`);
    expect(r.stdout).not.toContain('JSON');
    expect(r.stderr).toContain(`ragdesk: internal error ${error.details.ref} in ragdesk sources: Unexpected end of JSON input`);
    expect(r.stderr).toMatch(/SyntaxError[^\n]*\n\s+at /);
    expect(r.stderr).toContain('source-registry');
  });

  it('without --json: the same reference in the error line after the detail', async () => {
    const r = await cli('sources', 'list');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const ref = /ragdesk: internal error ([0-9a-f]{8}) in ragdesk sources/.exec(r.stderr)?.[1];
    expect(ref).toBeDefined();
    expect(r.stderr).toContain(`error [internal]: internal error (ref ${ref}); the details are in ragdesk's log\n`);
  });

  it('ragdesk mcp (stdio, owning the data dir): the agent gets the reference, stderr and mcp.log the detail', async () => {
    const mcp = await stdioClient(path.join(dir, 'mcp-data'), { args: ['--no-bridge'] });
    try {
      const result = await mcp.client.callTool({ name: 'kb_diagnostic', arguments: {} });
      expect(result.isError).toBe(true);
      const error = payload<{ code: string; message: string; details: { ref: string } }>(result);
      expect(error.code).toBe('internal');
      expect(error.message).toBe(`internal error (ref ${error.details.ref}); the details are in ragdesk's log`);
      // The protocol still works after the failure: stdout carried nothing else.
      expect((await mcp.client.callTool({ name: 'list_accessible_kbs', arguments: {} })).isError).toBeFalsy();
      const ref = error.details.ref;
      const logged = (text: string) =>
        text
          .split('\n')
          .filter((l) => l.includes(`"ref":"${ref}"`))
          .map((l) => JSON.parse(l) as { method: string; err: string });
      await expect.poll(() => logged(mcp.stderr()).length, { timeout: 10_000 }).toBe(1);
      expect(logged(mcp.stderr())[0]).toMatchObject({ method: 'healthReport', err: expect.stringContaining('SyntaxError') });
      expect(logged(mcp.stderr())[0]!.err).toContain('ledger');
      const file = path.join(dir, 'mcp-data', 'logs', 'mcp.log');
      await expect.poll(() => (fs.existsSync(file) ? logged(fs.readFileSync(file, 'utf8')).length : 0), { timeout: 10_000 }).toBe(1);
    } finally {
      await mcp.close();
    }
  });
});
