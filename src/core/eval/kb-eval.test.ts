import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support.js';
import { loadKbQueries } from './kb-eval.js';

function write(text: string): string {
  const file = path.join(tempDir('ragdesk-queries-'), 'q.jsonl');
  fs.writeFileSync(file, text);
  return file;
}

describe('a KB’s saved queries file', () => {
  it('reads doc_id lists and graded objects, skipping blank and # lines', () => {
    const q = loadKbQueries(
      write('# judged by hand\n{"query": "returns", "relevant": ["a", "b"]}\n\n{"query": "customs", "relevant": {"c": 2, "d": 0}}\n'),
    );
    expect(q.map((x) => [x.query, [...x.relevant]])).toEqual([
      [
        'returns',
        [
          ['a', 1],
          ['b', 1],
        ],
      ],
      [
        'customs',
        [
          ['c', 2],
          ['d', 0],
        ],
      ],
    ]);
  });
  it('names the line of a bad entry, and a missing file', () => {
    expect(() => loadKbQueries(write('{"query": "x", "relevant": []}\n'))).toThrow(/q\.jsonl:1: no relevant doc_id/);
    expect(() => loadKbQueries(write('{"relevant": ["a"]}\n'))).toThrow(/:1: no "query"/);
    expect(() => loadKbQueries(write('ok\n'))).toThrow(/:1: not JSON/);
    expect(() => loadKbQueries(write('\n'))).toThrow(/holds no queries/);
    expect(() => loadKbQueries('/nonexistent/q.jsonl')).toThrow(expect.objectContaining({ code: 'invalid_parameter' }));
  });
});
