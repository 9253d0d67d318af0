import { Badge, Group, Mark, Paper, Text } from '@mantine/core';
import type { Chunk, Location } from '../../shared/contract/index.js';
import { highlightSegments, segmentsFromMarks, type StemTerms } from '../lib/highlight.js';

/** "p. 3 · Intro › Setup · lines 10–24" (a chunk over several pages: "pp. 3–5") */
export function formatLocation(loc: Location): string {
  const parts: string[] = [];
  if (loc.page) parts.push(loc.page_end && loc.page_end > loc.page ? `pp. ${loc.page}–${loc.page_end}` : `p. ${loc.page}`);
  if (loc.heading_path && loc.heading_path.length > 0) parts.push(loc.heading_path.join(' › '));
  if (loc.line_start)
    parts.push(loc.line_end && loc.line_end !== loc.line_start ? `lines ${loc.line_start}–${loc.line_end}` : `line ${loc.line_start}`);
  return parts.join(' · ');
}

/** Document text as React text nodes, query terms wrapped in <mark>. Never HTML. */
export function HighlightedText({
  text,
  query,
  stems,
  marks,
}: {
  text: string;
  query?: string;
  stems?: StemTerms;
  /** The server's exact ranges for this text (preferred). */
  marks?: Array<[number, number]>;
}) {
  if (!query) return <>{text}</>;
  return (
    <>
      {(marks ? segmentsFromMarks(text, marks) : highlightSegments(text, query, stems)).map((seg, i) =>
        seg.match ? <Mark key={i}>{seg.text}</Mark> : <span key={i}>{seg.text}</span>,
      )}
    </>
  );
}

export function ChunkCard({ chunk, target, query, id }: { chunk: Chunk; target?: boolean; query?: string; id?: string }) {
  const where = formatLocation(chunk.location);
  return (
    <Paper
      withBorder
      p="sm"
      className={target ? 'chunk-target' : undefined}
      id={id}
      data-testid="chunk"
      data-chunk-index={chunk.chunk_index}
      component="article"
      aria-label={`Chunk ${chunk.chunk_index}`}
    >
      <Group gap="xs" mb={6}>
        <Badge variant="filled" size="sm">
          #{chunk.chunk_index}
        </Badge>
        <Text size="xs" c="dimmed">
          {chunk.characters} chars · {chunk.tokens} tokens
        </Text>
        {where && (
          <Text size="xs" c="dimmed">
            · {where}
          </Text>
        )}
      </Group>
      <Text className="doc-text" component="div">
        <HighlightedText text={chunk.text} query={query} />
      </Text>
    </Paper>
  );
}
