import { Alert, Badge, Group, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ChunkingConfig, PreviewResult } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { ChunkCard } from './ChunkCard.js';
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
        <Text fw={500}>Preview of {path}</Text>
        {loading && <Loader size="xs" aria-label="Updating the preview" />}
      </Group>
      <ErrorAlert error={error} title="This file cannot be added" />
      {result && (
        <>
          <Group gap="xs">
            <Badge variant="light">parser: {result.parser}</Badge>
            <Badge variant="light">{result.characters} characters</Badge>
            <Badge variant="light" data-testid="preview-count">
              {result.chunks.length} chunks
            </Badge>
            <Badge variant="light" color="gray">
              {result.chunking.strategy} · {result.chunking.chunk_size}/{result.chunking.chunk_overlap}
            </Badge>
          </Group>
          {result.warnings.length > 0 && (
            <Alert color="yellow" title="Warnings">
              {result.warnings.join(' · ')}
            </Alert>
          )}
          <ScrollArea.Autosize mah={480} type="auto">
            <Stack gap="xs" pr="sm">
              {result.chunks.slice(0, SHOWN).map((c) => (
                <ChunkCard key={c.chunk_index} chunk={c} />
              ))}
              {result.chunks.length > SHOWN && (
                <Text size="sm" c="dimmed">
                  … and {result.chunks.length - SHOWN} more chunks
                </Text>
              )}
            </Stack>
          </ScrollArea.Autosize>
        </>
      )}
    </Stack>
  );
}
