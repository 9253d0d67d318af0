import { Alert, Badge, Group, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChunkingConfig, PreviewResult } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { describeWarning } from '../lib/warnings.js';
import { ChunkCard } from './ChunkCard.js';
import { STRATEGY_SHORT } from './ChunkingFields.js';
import { ErrorAlert } from './common.js';

const SHOWN = 200;

/** Live preview of how one staged file will be chunked; re-runs when the chunking changes. Writes nothing. */
export function ChunkPreview({
  kbId,
  path,
  base64,
  chunking,
  onChunks,
}: {
  kbId: string;
  path: string;
  base64: () => Promise<string>;
  chunking: ChunkingConfig;
  onChunks: (count: number) => void;
}) {
  const { t } = useTranslation();
  const client = useClient();
  const [result, setResult] = useState<PreviewResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    let stale = false;
    setLoading(true);
    const timer = setTimeout(() => {
      base64()
        .then((data) => client.preview({ kb_id: kbId, filename: path.split('/').pop() ?? path, data_base64: data, chunking }))
        .then((r) => {
          if (stale) return;
          setResult(r);
          setError(null);
          onChunks(r.chunks.length);
        })
        .catch((err: unknown) => {
          if (stale) return;
          setResult(null);
          setError(err);
        })
        .finally(() => !stale && setLoading(false));
    }, 250);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
    // onChunks and base64 are stable per file; re-run on file or chunking changes only.
  }, [client, kbId, path, chunking.strategy, chunking.chunk_size, chunking.chunk_overlap]);

  return (
    <Stack gap="xs" data-testid="chunk-preview" aria-busy={loading} aria-live="polite">
      <Group gap="xs">
        <Text fw={500}>{t('preview.title', { file: path })}</Text>
        {loading && <Loader size="xs" aria-label={t('preview.updating')} />}
      </Group>
      <ErrorAlert error={error} title={t('preview.cannotAdd')} context={{ file: path }} />
      {result && (
        <>
          <Group gap="xs">
            <Badge variant="light">{t('preview.parser', { parser: result.parser })}</Badge>
            <Badge variant="light">{t('counts.characters', { count: result.characters })}</Badge>
            <Badge variant="light" data-testid="preview-count" data-count={result.chunks.length}>
              {t('counts.chunks', { count: result.chunks.length })}
            </Badge>
            <Badge variant="light" color="gray" data-testid="preview-chunking" data-strategy={result.chunking.strategy}>
              {t(STRATEGY_SHORT[result.chunking.strategy])} · {result.chunking.chunk_size}/{result.chunking.chunk_overlap}
            </Badge>
          </Group>
          {result.warnings.length > 0 && (
            <Alert color="yellow" title={t('preview.warnings')}>
              {result.warnings.map((w) => describeWarning(w, t)).join(' · ')}
            </Alert>
          )}
          <ScrollArea.Autosize mah={480} type="auto">
            <Stack gap="xs" pr="sm">
              {result.chunks.slice(0, SHOWN).map((c) => (
                <ChunkCard key={c.chunk_index} chunk={c} />
              ))}
              {result.chunks.length > SHOWN && (
                <Text size="sm" c="dimmed">
                  {t('preview.more', { count: result.chunks.length - SHOWN })}
                </Text>
              )}
            </Stack>
          </ScrollArea.Autosize>
        </>
      )}
    </Stack>
  );
}
