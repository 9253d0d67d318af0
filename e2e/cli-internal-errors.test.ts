import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, ragdesk } from './cli-support.js';

/**
 * A one-shot command that opened the data dir itself answers an unexpected failure as every door does
 * (`internal` with a reference) and writes its detail (message, file, stack) to stderr under that reference;
 * stdout carries only the command's output (one JSON document with --json).
 */
let dir: string;
const cli = (...args: string[]) => ragdesk(['--data-dir', path.join(dir, 'data'), ...args]);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-cli-internal-'));
  expect((await cli('kb', 'list')).code).toBe(0);
  // A sources file cut short (a full disk, a hand edit): opening the engine fails on JSON.parse.
  fs.writeFileSync(path.join(dir, 'data', 'sources.json'), '{"sources": [');
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('internal errors of one-shot commands', () => {
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
});
