import type { BlockDraft } from '../assemble.js';

/** Marks the speaker notes of a slide in the text, so a reader (and a model) can tell them from the slide. */
export const NOTES_LABEL = 'Notes:';

/**
 * One slide's blocks: its title (or "Slide N") as a level-1 heading, so each slide starts a new chunk and every chunk
 * carries the slide's title in its heading path; the slide's number as the page of every block; its body; then its
 * speaker notes as a paragraph that starts with "Notes:".
 */
export function slideBlocks(n: number, title: string, body: BlockDraft[], notes: BlockDraft[]): BlockDraft[] {
  const heading = title.replace(/\s+/g, ' ').trim() || `Slide ${n}`;
  const path = [heading];
  const out: BlockDraft[] = [{ kind: 'heading', level: 1, text: heading, page: n, heading_path: path }];
  for (const b of body) out.push({ ...b, page: n, heading_path: path });
  const noteText = notes
    .map((b) => b.text)
    .join('\n')
    .trim();
  if (noteText) out.push({ kind: 'paragraph', text: `${NOTES_LABEL} ${noteText}`, page: n, heading_path: path });
  return out;
}
