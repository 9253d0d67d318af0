import { Badge, Group, Mark, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Chunk, Location } from '../../shared/contract/index.js';
import type { T } from '../i18n/index.js';
import { highlightSegments, segmentsFromMarks, type StemTerms } from '../lib/highlight.js';

/** "p. 3 · Intro › Setup · lines 10–24" (a chunk over several pages: "pp. 3–5") */
export function formatLocation(loc: Location, t: T): string {
  const parts: string[] = [];
  if (loc.page)
    parts.push(
      loc.page_end && loc.page_end > loc.page
        ? t('chunk.pages', { from: loc.page, to: loc.page_end })
        : t('chunk.page', { page: loc.page }),
    );
  if (loc.heading_path && loc.heading_path.length > 0) parts.push(loc.heading_path.join(' › '));
  if (loc.line_start)
    parts.push(
      loc.line_end && loc.line_end !== loc.line_start
        ? t('chunk.lines', { from: loc.line_start, to: loc.line_end })
        : t('chunk.line', { line: loc.line_start }),
    );
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
  const { t } = useTranslation();
  const where = formatLocation(chunk.location, t);
  return (
    <Paper
      withBorder
      p="sm"
      className={target ? 'chunk-target' : undefined}
      id={id}
      data-testid="chunk"
      data-chunk-index={chunk.chunk_index}
      component="article"
      aria-label={t('chunk.aria', { index: chunk.chunk_index })}
    >
      <Group gap="xs" mb={6}>
        <Badge variant="filled" size="sm">
          #{chunk.chunk_index}
        </Badge>
        <Text size="xs" c="dimmed">
          {t('counts.characters', { count: chunk.characters })} · {t('counts.tokens', { count: chunk.tokens })}
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
