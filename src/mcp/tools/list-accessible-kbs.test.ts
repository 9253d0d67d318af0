import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { listAccessibleKbs } from './list-accessible-kbs.js';

describe('list_accessible_kbs', () => {
  it('lists the KBs the caller may read, with document counts, and nothing else', async () => {
    const { client } = memoryClient(
      {
        alpha: [
          { doc_id: 'a', content: 'x' },
          { doc_id: 'b', content: 'y' },
        ],
        beta: [],
      },
      { readable: ['alpha'] },
    );
    const out = await runTool(listAccessibleKbs, {}, client);
    expect(out.kbs).toEqual([{ kb_id: 'alpha', name: 'alpha', description: '', department: '', enabled: true, document_count: 2 }]);
    expect(listAccessibleKbs.count?.(out)).toBe(1);
  });
});
