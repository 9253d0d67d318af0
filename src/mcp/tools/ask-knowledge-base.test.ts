import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { askKnowledgeBase } from './ask-knowledge-base.js';

const kbs = { alpha: [{ doc_id: 'heart', title: 'Heart', content: 'High blood pressure raises the risk of heart disease.' }] };

describe('ask_knowledge_base', () => {
  it('answers extractively with numbered sources when the client cannot sample', async () => {
    const { client } = memoryClient(kbs);
    const out = await runTool(askKnowledgeBase, { question: 'What raises the risk of heart disease?' }, client);
    expect(out).toMatchObject({ method: 'extractive', not_found: false });
    expect(out.sources[0]).toMatchObject({ n: 1, doc_id: 'heart' });
    expect(out.answer).toMatch(/blood pressure/);
  });

  it("writes the answer with the client's own model when it can sample, and says not_found when nothing matches", async () => {
    const { client } = memoryClient(kbs);
    const sample = async () => ({
      role: 'assistant' as const,
      model: 'm',
      content: { type: 'text' as const, text: 'Blood pressure [1].' },
    });
    const sampled = await runTool(askKnowledgeBase, { question: 'heart risk?', kb_id: 'alpha' }, client, { sample });
    expect(sampled).toMatchObject({ method: 'sampling', answer: 'Blood pressure [1].' });
    const none = await runTool(askKnowledgeBase, { question: 'volcano eruptions' }, client);
    expect(none).toMatchObject({ not_found: true, method: 'none', sources: [] });
  });
});
