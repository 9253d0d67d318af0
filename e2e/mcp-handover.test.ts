import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../src/core/config/data-dir.js';
import type { Fixture } from '../src/mcp/test-support.js';
import { httpClient, seededFixture, startServe, stdioClient } from './mcp-helpers.js';
import { payload } from './mcp-suite.js';

let fx: Fixture;

beforeAll(async () => {
  fx = await seededFixture('ragdesk-e2e-handover-');
});

afterAll(() => fx?.cleanup());

describe('a stdio server that owns the data dir hands it over to `ragdesk serve`', () => {
  it('keeps answering the stdio client, now through the server, with no lock error', async () => {
    const stdio = await stdioClient(fx.dataDir, { name: 'early-client' });
    try {
      const first = payload<{ kbs: unknown[] }>(await stdio.client.callTool({ name: 'list_accessible_kbs', arguments: {} }));
      expect(first.kbs.length).toBeGreaterThan(0);
      const before = JSON.parse(fs.readFileSync(dataPaths(fx.dataDir).lock, 'utf8')) as { pid: number };
      const served = await startServe(fx.dataDir);
      try {
        const after = JSON.parse(fs.readFileSync(dataPaths(fx.dataDir).lock, 'utf8')) as { pid: number; port: number };
        expect(after.pid).toBe(served.proc.pid);
        expect(after.pid).not.toBe(before.pid);
        const added = payload(
          await stdio.client.callTool({
            name: 'add_document',
            arguments: { kb_id: 'alpha', doc_id: 'after-handover', content: 'The summer sun and the winter snow.' },
          }),
        );
        expect(added).toMatchObject({ status: 'added' });
        const http = await httpClient(served.url, served.token);
        try {
          const doc = payload(
            await http.client.callTool({ name: 'get_document', arguments: { kb_id: 'alpha', doc_id: 'after-handover' } }),
          );
          expect(doc).toMatchObject({ content: expect.stringContaining('winter') });
        } finally {
          await http.close();
        }
        expect(served.stderr()).not.toMatch(/error/i);
      } finally {
        expect(await served.stop()).toBe(0);
      }
    } finally {
      await stdio.close();
    }
  });
});
