import { Badge, Button, Group, Paper, Progress, Stack, Switch, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Job, Source } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { useFormat } from '../i18n/format.js';
import { useQuery } from '../lib/use-query.js';
import { ConfirmModal, ErrorAlert } from './common.js';
import { IconFolder, IconPlus, IconTrash } from './icons.js';

const splitGlobs = (s: string) =>
  s
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);

const STATE_LABEL = {
  idle: 'sources.stateIdle',
  syncing: 'sources.stateSyncing',
  paused: 'sources.statePaused',
  error: 'sources.stateError',
} as const satisfies Record<Source['state'], string>;

function StateBadge({ source }: { source: Source }) {
  const { t } = useTranslation();
  const color = { idle: 'teal', syncing: 'blue', paused: 'gray', error: 'red' }[source.state];
  const badge = (
    <Badge color={color} variant="light" data-testid="source-state" data-state={source.state}>
      {t(STATE_LABEL[source.state])}
    </Badge>
  );
  return (
    <Stack gap={2} align="flex-start">
      {source.last_error ? (
        <Tooltip label={t('sources.lastError', { message: source.last_error })} multiline w={320} withArrow>
          {badge}
        </Tooltip>
      ) : (
        badge
      )}
      <Text size="xs" c="dimmed">
        {source.watching ? t('sources.watching') : source.paused ? t('sources.notWatched') : t('sources.onDemand')}
      </Text>
    </Stack>
  );
}

function JobProgress({ job }: { job: Job }) {
  const { t } = useTranslation();
  const f = useFormat();
  const p = job.progress;
  const fraction = p.files_total ? p.files_done / p.files_total : 0;
  const eta = p.eta_ms === null ? '' : ` · ${t('sources.timeLeft', { time: f.duration(p.eta_ms) })}`;
  return (
    <Stack gap={2}>
      <Progress
        value={Math.round(fraction * 100)}
        size="sm"
        aria-label={t('sources.syncProgress', { percent: f.percent(fraction) })}
        animated
      />
      <Text size="xs" c="dimmed">
        {t('sources.progress', {
          done: p.files_done,
          files: t('counts.files', { count: p.files_total }),
          chunks: t('counts.chunks', { count: p.chunks }),
        })}
        {eta}
      </Text>
      {p.current_ocr && (
        <Text size="xs" c="dimmed" data-testid="sync-ocr">
          {`${p.current_ocr.file.split(/[\\/]/).pop() ?? ''} · ${t('uploads.ocrPages', { done: p.current_ocr.done, total: p.current_ocr.total })}`}
        </Text>
      )}
      {p.current_stream && (
        <Text size="xs" c="dimmed" data-testid="sync-stream">
          {`${p.current_stream.file.split(/[\\/]/).pop() ?? ''} · ${t('uploads.streamBytes', {
            done: Math.round(p.current_stream.bytes / 1048576),
            total: Math.round(p.current_stream.total_bytes / 1048576),
            chunks: p.current_stream.chunks,
          })}`}
        </Text>
      )}
    </Stack>
  );
}

/** Folders the KB keeps in sync: add one, see each with its last sync and counts, sync now, pause, remove. */
export function SourcesPanel({ kbId, onChanged }: { kbId: string; onChanged: () => void }) {
  const { t } = useTranslation();
  const f = useFormat();
  const client = useClient();
  const [folder, setFolder] = useState('');
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [recursive, setRecursive] = useState(true);
  // Off by default: links are left out, so every file indexed is really inside the folder.
  const [followLinks, setFollowLinks] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [removing, setRemoving] = useState<Source | null>(null);
  const sources = useQuery(() => client.listSources({ kb_id: kbId }), [client, kbId], { intervalMs: 2000 });
  const syncing = (sources.data ?? []).some((s) => s.state === 'syncing');
  const jobs = useQuery(() => client.listJobs({ kb_id: kbId, active: true }), [client, kbId], { intervalMs: 1000, enabled: syncing });
  // A sync that finished (started here, by the watcher or at start-up) changes the documents: refresh the page.
  const synced = (sources.data ?? []).map((s) => `${s.source_id}@${s.last_sync_at ?? ''}`).join('|');
  const lastSynced = useRef<string | null>(null);
  useEffect(() => {
    if (!sources.data) return;
    if (lastSynced.current !== null && lastSynced.current !== synced) onChanged();
    lastSynced.current = synced;
  }, [synced]);

  async function act(key: string, fn: () => Promise<unknown>) {
    setBusy(key);
    setError(null);
    try {
      await fn();
      sources.reload();
      onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }

  const add = () =>
    act('add', async () => {
      await client.addSource({
        kb_id: kbId,
        path: folder.trim(),
        include: splitGlobs(include),
        exclude: splitGlobs(exclude),
        recursive,
        follow_links: followLinks,
        sync: false,
      });
      setFolder('');
      setFollowLinks(false);
    });

  const list = sources.data ?? [];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sources-title">
      <Stack>
        <Title order={3} size="h4" id="sources-title">
          {t('sources.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('sources.intro')}
        </Text>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('sources.folderPath')}
            placeholder={t('sources.folderPlaceholder')}
            value={folder}
            onChange={(e) => setFolder(e.currentTarget.value)}
            leftSection={<IconFolder size={14} />}
            miw={280}
            style={{ flex: 1 }}
          />
          <TextInput
            label={t('sources.include')}
            placeholder={t('sources.includePlaceholder')}
            value={include}
            onChange={(e) => setInclude(e.currentTarget.value)}
            w={200}
          />
          <TextInput
            label={t('sources.exclude')}
            placeholder={t('sources.excludePlaceholder')}
            value={exclude}
            onChange={(e) => setExclude(e.currentTarget.value)}
            w={160}
          />
          <Switch label={t('sources.subfolders')} checked={recursive} onChange={(e) => setRecursive(e.currentTarget.checked)} mb={8} />
          <Tooltip label={t('sources.followLinksHint')} multiline w={320} withArrow>
            <Switch
              label={t('sources.followLinks')}
              checked={followLinks}
              onChange={(e) => setFollowLinks(e.currentTarget.checked)}
              mb={8}
            />
          </Tooltip>
          <Button leftSection={<IconPlus size={16} />} onClick={() => void add()} loading={busy === 'add'} disabled={!folder.trim()}>
            {t('sources.addFolder')}
          </Button>
        </Group>
        <ErrorAlert error={error ?? sources.error} title={t('sources.error')} />
        {list.length > 0 && (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="xs" aria-label={t('sources.title')} data-testid="sources-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('sources.colFolder')}</Table.Th>
                  <Table.Th>{t('sources.colState')}</Table.Th>
                  <Table.Th>{t('sources.colLastSync')}</Table.Th>
                  <Table.Th ta="right">{t('sources.colFiles')}</Table.Th>
                  <Table.Th ta="right">{t('sources.colIndexed')}</Table.Th>
                  <Table.Th ta="right">{t('sources.colSkipped')}</Table.Th>
                  <Table.Th ta="right">{t('sources.colFailed')}</Table.Th>
                  <Table.Th>
                    <span className="sr-only">{t('sources.colActions')}</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((s) => {
                  const job = jobs.data?.jobs.find((j) => j.job_id === s.job_id);
                  return (
                    <Table.Tr key={s.source_id} data-source={s.source_id}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        {s.path}
                        <Text size="xs" c="dimmed">
                          {s.source_id}
                          {s.include.length ? ` · ${t('sources.only', { globs: s.include.join(', ') })}` : ''}
                          {s.exclude.length ? ` · ${t('sources.not', { globs: s.exclude.join(', ') })}` : ''}
                          {s.recursive ? '' : ` · ${t('sources.topOnly')}`}
                          {s.follow_links ? ` · ${t('sources.linksFollowed')}` : ''}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <StateBadge source={s} />
                        {job && <JobProgress job={job} />}
                      </Table.Td>
                      <Table.Td>{f.date(s.last_sync_at)}</Table.Td>
                      <Table.Td ta="right">{f.number(s.counts.files)}</Table.Td>
                      <Table.Td ta="right">{f.number(s.counts.indexed)}</Table.Td>
                      <Table.Td ta="right">{f.number(s.counts.skipped)}</Table.Td>
                      <Table.Td ta="right">
                        {s.counts.failed ? (
                          <Text span c="red" size="sm">
                            {f.number(s.counts.failed)}
                          </Text>
                        ) : (
                          0
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button
                            size="xs"
                            variant="light"
                            loading={busy === `sync:${s.source_id}`}
                            disabled={s.state === 'syncing'}
                            onClick={() =>
                              void act(`sync:${s.source_id}`, () => client.syncSource({ source_id: s.source_id, wait: false }))
                            }
                          >
                            {t('sources.syncNow')}
                          </Button>
                          <Button
                            size="xs"
                            variant="default"
                            loading={busy === `pause:${s.source_id}`}
                            onClick={() =>
                              void act(`pause:${s.source_id}`, () =>
                                s.paused ? client.resumeSource({ source_id: s.source_id }) : client.pauseSource({ source_id: s.source_id }),
                              )
                            }
                          >
                            {s.paused ? t('sources.resume') : t('sources.pause')}
                          </Button>
                          <Button
                            size="xs"
                            color="red"
                            variant="subtle"
                            aria-label={t('sources.removeNamed', { path: s.path })}
                            onClick={() => setRemoving(s)}
                          >
                            <IconTrash size={14} />
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <ConfirmModal
        opened={removing !== null}
        title={t('sources.removeTitle')}
        confirmLabel={t('common.remove')}
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await client.removeSource({ source_id: removing.source_id });
          sources.reload();
          onChanged();
        }}
      >
        {t('sources.removeText', { documents: t('counts.documents', { count: removing?.counts.indexed ?? 0 }) })}
      </ConfirmModal>
    </Paper>
  );
}
