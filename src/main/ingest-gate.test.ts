import { describe, expect, it } from 'vitest';
import { METHOD_NAMES, type RagClient } from '../shared/contract/index.js';
import { IngestGate } from './ingest-gate.js';

function client(log: string[]): RagClient {
  const c = {} as Record<string, (i: unknown) => Promise<unknown>>;
  for (const m of METHOD_NAMES) c[m] = async () => (log.push(m), m);
  return c as unknown as RagClient;
}

describe('IngestGate', () => {
  it('holds ingest calls while paused and lets reads through', async () => {
    const log: string[] = [];
    const gate = new IngestGate();
    const c = gate.wrap(client(log));
    gate.setPaused(true);
    const upload = c.uploadFile({ kb_id: 'a', filename: 'x.md', data_base64: '' });
    await c.search({ query: 'q' });
    await c.deleteDocument({ kb_id: 'a', doc_id: 'd' });
    await new Promise((r) => setTimeout(r, 10));
    expect(log).toEqual(['search', 'deleteDocument']);
    gate.setPaused(false);
    await upload;
    expect(log).toEqual(['search', 'deleteDocument', 'uploadFile']);
  });

  it('counts ingests in flight and reports changes', async () => {
    const gate = new IngestGate();
    let changes = 0;
    gate.onChange(() => changes++);
    const c = gate.wrap(client([]));
    const p = c.addDocument({ kb_id: 'a', content: 'x' });
    expect(gate.active).toBe(1);
    await p;
    expect(gate.active).toBe(0);
    expect(changes).toBe(2);
  });
});
