import { Badge, Button, Group, Paper, Progress, Stack, Switch, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { Job, Source } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { useQuery } from '../lib/use-query.js';
import { ConfirmModal, ErrorAlert, formatDate } from './common.js';
import { IconFolder, IconPlus, IconTrash } from './icons.js';

const splitGlobs = (s: string) =>
  s
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);

function StateBadge({ source }: { source: Source }) {
  const color = { idle: 'teal', syncing: 'blue', paused: 'gray', error: 'red' }[source.state];
  const badge = (
    <Badge color={color} variant="light" data-testid="source-state">
      {source.state}
    </Badge>
  );
  return (
    <Stack gap={2} align="flex-start">
      {source.last_error ? (
        <Tooltip label={source.last_error} multiline w={320} withArrow>
          {badge}
        </Tooltip>
      ) : (
        badge
      )}
      <Text size="xs" c="dimmed">
        {source.watching ? 'watching for changes' : source.paused ? 'not watched' : 'synced on demand'}
      </Text>
    </Stack>
  );
}

function JobProgress({ job }: { job: Job }) {
  const p = job.progress;
  const pct = p.files_total ? Math.round((p.files_done / p.files_total) * 100) : 0;
  const eta = p.eta_ms === null ? '' : ` · about ${Math.max(1, Math.round(p.eta_ms / 1000))} s left`;
  return (
    <Stack gap={2}>
      <Progress value={pct} size="sm" aria-label={`Sync progress ${pct}%`} animated />
      <Text size="xs" c="dimmed">
        {p.files_done}/{p.files_total} files · {p.chunks} chunks{eta}
      </Text>
    </Stack>
  );
}

/** Folders the KB keeps in sync: add one, see each with its last sync and counts, sync now, pause, remove. */
export function SourcesPanel({ kbId, onChanged }: { kbId: string; onChanged: () => void }) {
  const client = useClient();
  const [folder, setFolder] = useState('');
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [recursive, setRecursive] = useState(true);
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
        sync: false,
      });
      setFolder('');
    });

  const list = sources.data ?? [];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sources-title">
      <Stack>
        <Title order={3} size="h4" id="sources-title">
          Folder sources
        </Title>
        <Text size="sm" c="dimmed">
          A folder on this machine kept in sync: new files are added, changed ones re-indexed, deleted ones removed, while ragdesk runs.
        </Text>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Folder path"
            placeholder="/home/me/Documents/handbook"
            value={folder}
            onChange={(e) => setFolder(e.currentTarget.value)}
            leftSection={<IconFolder size={14} />}
            miw={280}
            style={{ flex: 1 }}
          />
          <TextInput
            label="Include"
            placeholder="*.md, *.pdf (all files)"
            value={include}
            onChange={(e) => setInclude(e.currentTarget.value)}
            w={200}
          />
          <TextInput
            label="Exclude"
            placeholder="drafts, *.tmp"
            value={exclude}
            onChange={(e) => setExclude(e.currentTarget.value)}
            w={160}
          />
          <Switch label="Subfolders" checked={recursive} onChange={(e) => setRecursive(e.currentTarget.checked)} mb={8} />
          <Button leftSection={<IconPlus size={16} />} onClick={() => void add()} loading={busy === 'add'} disabled={!folder.trim()}>
            Add folder
          </Button>
        </Group>
        <ErrorAlert error={error ?? sources.error} title="Folder sources" />
        {list.length > 0 && (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="xs" aria-label="Folder sources" data-testid="sources-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Folder</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Last sync</Table.Th>
                  <Table.Th ta="right">Files</Table.Th>
                  <Table.Th ta="right">Indexed</Table.Th>
                  <Table.Th ta="right">Skipped</Table.Th>
                  <Table.Th ta="right">Failed</Table.Th>
                  <Table.Th />
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
                          {s.include.length ? ` · only ${s.include.join(', ')}` : ''}
                          {s.exclude.length ? ` · not ${s.exclude.join(', ')}` : ''}
                          {s.recursive ? '' : ' · top folder only'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <StateBadge source={s} />
                        {job && <JobProgress job={job} />}
                      </Table.Td>
                      <Table.Td>{formatDate(s.last_sync_at)}</Table.Td>
                      <Table.Td ta="right">{s.counts.files}</Table.Td>
                      <Table.Td ta="right">{s.counts.indexed}</Table.Td>
                      <Table.Td ta="right">{s.counts.skipped}</Table.Td>
                      <Table.Td ta="right">
                        {s.counts.failed ? (
                          <Text span c="red" size="sm">
                            {s.counts.failed}
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
                            Sync now
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
                            {s.paused ? 'Resume' : 'Pause'}
                          </Button>
                          <Button size="xs" color="red" variant="subtle" aria-label={`Remove ${s.path}`} onClick={() => setRemoving(s)}>
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
        title="Remove this folder source?"
        confirmLabel="Remove"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await client.removeSource({ source_id: removing.source_id });
          sources.reload();
          onChanged();
        }}
      >
        The {removing?.counts.indexed ?? 0} documents it brought are deleted from the knowledge base. The folder itself is not touched.
      </ConfirmModal>
    </Paper>
  );
}
