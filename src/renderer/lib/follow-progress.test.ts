import { describe, expect, it } from 'vitest';
import { ProgressTokenSchema, type Progress } from '../../shared/contract/index.js';
import { followProgress, progressToken } from './follow-progress.js';

describe('followProgress', () => {
  it('reports each new state until stopped, skipping repeats and failed polls', async () => {
    const answers: Array<Progress | Error> = [
      null,
      { stage: 'ocr', done: 1, total: 3, detail: 'scan.pdf', finished: false },
      new Error('network hiccup'),
      { stage: 'ocr', done: 1, total: 3, detail: 'scan.pdf', finished: false },
      { stage: 'ocr', done: 2, total: 3, detail: 'scan.pdf', finished: false },
    ];
    let polls = 0;
    const seen: string[] = [];
    const stop = followProgress(
      async () => {
        const a = answers[Math.min(polls++, answers.length - 1)]!;
        if (a instanceof Error) throw a;
        return a;
      },
      'token-123',
      (p) => seen.push(`${p.done}/${p.total}`),
      5,
    );
    await new Promise((r) => setTimeout(r, 80));
    stop();
    const after = polls;
    await new Promise((r) => setTimeout(r, 30));
    expect(seen).toEqual(['1/3', '2/3']);
    expect(polls).toBe(after);
  });

  it('makes tokens the contract accepts', () => {
    for (let i = 0; i < 20; i++) expect(ProgressTokenSchema.safeParse(progressToken()).success).toBe(true);
  });
});
