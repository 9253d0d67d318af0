import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { ModelChange } from '../../shared/contract/index.js';
import { useApi } from '../api/context.js';
import { useQuery } from '../lib/use-query.js';
import { ErrorAlert } from './common.js';

const ACTIVE = new Set(['running', 'indexing', 'interrupted', 'failed']);

function eta(ms: number | null): string {
  if (ms === null) return '';
  const s = Math.round(ms / 1000);
  return s >= 120 ? ` · about ${Math.round(s / 60)} min left` : ` · about ${s} s left`;
}

function label(m: ModelChange): string {
  switch (m.state) {
    case 'running':
      return `Re-embedding with ${m.to_model}: ${m.chunks_done} of ${m.chunks_total} chunks${eta(m.eta_ms)}`;
    case 'indexing':
      return `Building the search indexes for ${m.to_model}`;
    case 'interrupted':
      return `Stopped at ${m.chunks_done} of ${m.chunks_total} chunks; it resumes when ragdesk starts again`;
    case 'failed':
      return `Failed: ${m.error ?? 'unknown error'}`;
    case 'done':
      return `Now using ${m.to_model}`;
    case 'cancelled':
      return `Cancelled; the knowledge base keeps ${m.from_model}`;
  }
}

/**
 * A KB's model change, polled while shown: progress, ETA and a cancel button. Search keeps using the old model
 * until the change is swapped in, so the dialog can be closed at any time. `since` shows a change finished after it.
 */
export function ModelChangeProgress({ kbId, since, onDone }: { kbId: string; since?: string | undefined; onDone?: () => void }) {
  const { client } = useApi();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const status = useQuery(() => client.modelChangeStatus({ kb_id: kbId }), [client, kbId], { intervalMs: 1000 });
  const m = status.data?.migration;
  const reported = useRef<string | null>(null);
  const doneAt = m?.state === 'done' && since && m.updated_at >= since ? m.finished_at : null;
  useEffect(() => {
    // Tell the page once the change started here is swapped in (the KB's model changed).
    if (doneAt && reported.current !== doneAt) {
      reported.current = doneAt;
      onDone?.();
    }
  }, [doneAt, onDone]);
  if (!m || (!ACTIVE.has(m.state) && !(since && m.updated_at >= since))) return null;
  const active = ACTIVE.has(m.state);
  const pct = m.chunks_total ? (100 * m.chunks_done) / m.chunks_total : m.state === 'done' ? 100 : 0;

  async function cancel() {
    setBusy(true);
    setError(null);
    try {
      await client.cancelModelChange({ kb_id: kbId });
      status.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Alert
      color={m.state === 'failed' ? 'red' : m.state === 'done' ? 'green' : 'blue'}
      title="Embedding model change"
      data-testid="model-change"
    >
      <Stack gap="xs">
        <Text size="sm">{label(m)}</Text>
        {active && <Progress value={pct} animated={m.state === 'running' || m.state === 'indexing'} aria-label="Model change progress" />}
        {active && (
          <Text size="xs" c="dimmed">
            Search keeps using {m.from_model} until the change is complete.
          </Text>
        )}
        <ErrorAlert error={error} title="Could not cancel" />
        {active && (
          <Group justify="flex-end">
            <Button size="xs" variant="default" color="red" loading={busy} onClick={() => void cancel()}>
              Cancel model change
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
