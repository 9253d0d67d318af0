import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { getDocument } from './get-document.js';

const long = { doc_id: 'manual', content: 'zero one two three four', chunks: ['zero', 'one', 'two', 'three', 'four'] };

describe('get_document', () => {
  it('returns a chunk and its neighbours for a search hit', async () => {
    const { client } = memoryClient({ alpha: [long] });
    const out = await runTool(getDocument, { kb_id: 'alpha', doc_id: 'manual', chunk_index: 2, window: 1 }, client);
    expect(out.chunks?.map((c) => c.text)).toEqual(['one', 'two', 'three']);
    expect(out.chunk_count).toBe(5);
  });

  it('says what is out of range, and passes not-found codes through', async () => {
    const { client } = memoryClient({ alpha: [long] });
    await expect(runTool(getDocument, { kb_id: 'alpha', doc_id: 'manual', chunk_index: 9 }, client)).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
    await expect(runTool(getDocument, { kb_id: 'alpha', doc_id: 'nope' }, client)).rejects.toMatchObject({ code: 'document_not_found' });
  });

  it('returns at most max_chars of a long text, says so, and reads on from next_offset to the end', async () => {
    const content = Array.from({ length: 12_000 }, (_, i) => `word${i}`).join(' ');
    const { client } = memoryClient({ alpha: [{ doc_id: 'big', content }] });
    const first = await runTool(getDocument, { kb_id: 'alpha', doc_id: 'big' }, client);
    expect(first.content!.length).toBeLessThanOrEqual(32_000);
    expect(first.content!.length).toBeGreaterThan(25_000);
    expect(first).toMatchObject({ truncated: true, offset: 0, size: content.length });
    expect(first.note).toContain(`offset=${first.next_offset}`);
    let text = first.content!;
    let next = first.next_offset;
    while (next !== null && next !== undefined) {
      const part = await runTool(getDocument, { kb_id: 'alpha', doc_id: 'big', offset: next, max_chars: 20_000 }, client);
      expect(part.offset).toBe(next);
      text += part.content!;
      next = part.next_offset;
    }
    expect(text).toBe(content);
    const small = await runTool(getDocument, { kb_id: 'alpha', doc_id: 'manual' }, memoryClient({ alpha: [long] }).client);
    expect(small).toMatchObject({ content: long.content, truncated: false, next_offset: null });
    await expect(runTool(getDocument, { kb_id: 'alpha', doc_id: 'big', max_chars: 500_000 }, client)).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
    await expect(runTool(getDocument, { kb_id: 'alpha', doc_id: 'big', offset: content.length + 1 }, client)).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
  });

  it('with chunk_index keeps within max_chars: nearest neighbours first, a cut hit chunk says how to read it whole', async () => {
    const chunks = Array.from({ length: 7 }, (_, i) => `${String(i).repeat(600)}`);
    const { client } = memoryClient({ alpha: [{ doc_id: 'c', content: chunks.join(''), chunks }] });
    const out = await runTool(getDocument, { kb_id: 'alpha', doc_id: 'c', chunk_index: 3, window: 3, max_chars: 1_900 }, client);
    expect(out.chunks!.map((c) => c.chunk_index)).toEqual([2, 3, 4]);
    expect(out.truncated).toBe(true);
    expect(out.note).toContain('1, 5');
    const cut = await runTool(getDocument, { kb_id: 'alpha', doc_id: 'c', chunk_index: 0, window: 0, max_chars: 1_000 }, client);
    expect(cut.chunks![0]!.text).toHaveLength(600);
    const big = Array.from({ length: 3 }, (_, i) => `${String(i).repeat(1_500)}`);
    const b = memoryClient({ alpha: [{ doc_id: 'b', content: big.join(''), chunks: big }] }).client;
    const one = await runTool(getDocument, { kb_id: 'alpha', doc_id: 'b', chunk_index: 1, window: 1, max_chars: 1_000 }, b);
    expect(one.chunks!.map((c) => [c.chunk_index, c.text.length])).toEqual([[1, 1_000]]);
    expect(one.note).toContain('offset=1500');
  });
});
