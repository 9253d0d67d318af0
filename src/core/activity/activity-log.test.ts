import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../shared/contract/keys.js';
import { ActivityLog, summarizeArgs } from './activity-log.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-activity-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const entry = (i: number, tool = 'search_kb'): ActivityEntry => ({
  time: new Date(1_700_000_000_000 + i).toISOString(),
  key_name: i % 2 ? 'a' : 'b',
  client: 'c',
  transport: 'stdio',
  tool,
  args: { i },
  hits: i,
  latency_ms: 1,
  error_code: null,
});

describe('activity log', () => {
  it('keeps the last N entries, newest first, filterable', () => {
    const log = new ActivityLog(path.join(dir, 'activity.jsonl'), 10);
    for (let i = 0; i < 35; i++) log.append(entry(i, i % 3 ? 'search_kb' : 'add_document'));
    const all = log.list({ limit: 100 });
    expect(all.total).toBe(10);
    expect(all.entries[0]!.args).toEqual({ i: 34 });
    expect(log.list({ limit: 3 }).entries).toHaveLength(3);
    expect(log.list({ tool: 'add_document' }).entries.every((e) => e.tool === 'add_document')).toBe(true);
    expect(log.list({ key_name: 'a' }).entries.every((e) => e.key_name === 'a')).toBe(true);
    expect(fs.readFileSync(log.file, 'utf8').trim().split('\n').length).toBeLessThan(20);
    log.close();
  });

  it('summarises arguments without secrets or content', () => {
    const s = summarizeArgs({
      kb_id: 'alpha',
      content: 'x'.repeat(5000),
      api_key: 'rdk_secret',
      token: 't',
      query: 'q'.repeat(500),
      documents: Array.from({ length: 9 }, (_, i) => ({ doc_id: `d${i}`, content: 'secret body' })),
      metadata: { password: 'p', year: 2020 },
    });
    expect(s.kb_id).toBe('alpha');
    expect(s.content).toBe('[5000 chars]');
    expect(s.api_key).toBe('[redacted]');
    expect(s.token).toBe('[redacted]');
    expect(String(s.query).length).toBeLessThan(200);
    expect(s.documents).toMatchObject({ count: 9 });
    expect(s.metadata).toEqual({ password: '[redacted]', year: 2020 });
    expect(JSON.stringify(s)).not.toContain('secret body');
  });
});
