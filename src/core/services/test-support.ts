import type { PreparedDoc } from './ingest.js';

/** A prepared Markdown document whose chunks are `texts`, in order (their text joined by blank lines). */
export function preparedDoc(doc_id: string, title: string, texts: string[]): PreparedDoc {
  const text = texts.join('\n\n');
  let at = 0;
  return {
    doc_id,
    title,
    source: `${doc_id}.md`,
    metadata: {},
    parsed: { parser: 'markdown', text, blocks: [], metadata: {}, warnings: [] },
    chunking: { strategy: 'markdown', chunk_size: 256, chunk_overlap: 32 },
    chunks: texts.map((t, chunk_index) => {
      const start = text.indexOf(t, at);
      at = start + t.length;
      return { chunk_index, text: t, characters: t.length, tokens: 4, location: { char_start: start, char_end: at } };
    }),
    hash: `hash-${doc_id}`,
    overwrite: false,
    warnings: [],
  };
}
