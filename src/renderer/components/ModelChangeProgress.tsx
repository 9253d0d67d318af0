import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelChange } from '../../shared/contract/index.js';
import { useApi } from '../api/context.js';
import { useFormat, type Formatters } from '../i18n/format.js';
import type { T } from '../i18n/index.js';
import { useQuery } from '../lib/use-query.js';
import { ErrorAlert } from './common.js';

const ACTIVE = new Set(['running', 'indexing', 'interrupted', 'failed']);

function label(m: ModelChange, t: T, f: Formatters): string {
  switch (m.state) {
    case 'running': {
      const progress = t('modelChange.running', { model: m.to_model, done: f.number(m.chunks_done), total: f.number(m.chunks_total) });
      return m.eta_ms === null ? progress : `${progress} · ${t('modelChange.eta', { time: f.duration(m.eta_ms) })}`;
    }
    case 'indexing':
      return t('modelChange.indexing', { model: m.to_model });
    case 'interrupted':
      return t('modelChange.interrupted', { done: f.number(m.chunks_done), total: f.number(m.chunks_total) });
    case 'failed':
      return t('modelChange.failed', { model: m.from_model });
    case 'done':
      return t('modelChange.done', { model: m.to_model });
    case 'cancelled':
      return t('modelChange.cancelled', { model: m.from_model });
  }
}

/**
 * A KB's model change, polled while shown: progress, ETA and a cancel button. Search keeps using the old model
 * until the change is swapped in, so the dialog can be closed at any time. `since` shows a change finished after it.
 */
export function ModelChangeProgress({ kbId, since, onDone }: { kbId: string; since?: string | undefined; onDone?: () => void }) {
  const { t } = useTranslation();
  const f = useFormat();
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
      title={t('modelChange.title')}
      data-testid="model-change"
    >
      <Stack gap="xs">
        <Text size="sm">{label(m, t, f)}</Text>
        {m.state === 'failed' && m.error && (
          <Text size="xs" c="dimmed" title={t('common.serverSaid')} translate="no">
            {m.error}
          </Text>
        )}
        {active && (
          <Progress value={pct} animated={m.state === 'running' || m.state === 'indexing'} aria-label={t('modelChange.progress')} />
        )}
        {active && (
          <Text size="xs" c="dimmed">
            {t('modelChange.keepsUsing', { model: m.from_model })}
          </Text>
        )}
        <ErrorAlert error={error} title={t('modelChange.cancelError')} />
        {active && (
          <Group justify="flex-end">
            <Button size="xs" variant="default" color="red" loading={busy} onClick={() => void cancel()}>
              {t('modelChange.cancel')}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
