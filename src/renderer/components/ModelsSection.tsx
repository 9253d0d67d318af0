import { Badge, Button, Group, Paper, Progress, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportedModel, ModelStatus } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import type { T } from '../i18n/index.js';
import { useFormat } from '../i18n/format.js';
import { useQuery } from '../lib/use-query.js';
import { ErrorAlert } from './common.js';

const STATE_COLOR: Record<ModelStatus['state'], string> = {
  loaded: 'teal',
  missing: 'gray',
  downloading: 'blue',
  loading: 'indigo',
  error: 'red',
};

export function modelStateLabel(state: ModelStatus['state'], t: T): string {
  switch (state) {
    case 'loaded':
      return t('models.stateLoaded');
    case 'missing':
      return t('models.stateMissing');
    case 'downloading':
      return t('models.stateDownloading');
    case 'loading':
      return t('models.stateLoading');
    case 'error':
      return t('models.stateError2');
  }
}

const kindLabel = (kind: string, t: T) =>
  kind === 'embedding' ? t('models.kindEmbedding') : kind === 'rerank' ? t('models.kindRerank') : kind;

/** The presets' descriptions in the UI language (the server's are English, for agents and the CLI). */
function presetDescription(name: string, fallback: string, t: T): string {
  switch (name) {
    case 'multilingual':
      return t('models.presetMultilingual');
    case 'english':
      return t('models.presetEnglish');
    case 'rerank':
      return t('models.presetRerank');
    default:
      return fallback;
  }
}

function StateBadge({ status }: { status: ModelStatus | undefined }) {
  const { t } = useTranslation();
  const f = useFormat();
  if (!status)
    return (
      <Badge color="gray" variant="light" style={{ overflow: 'visible' }}>
        {t('models.stateNotLoaded')}
      </Badge>
    );
  return (
    <Stack gap={2}>
      <Badge color={STATE_COLOR[status.state]} variant="light" style={{ overflow: 'visible' }}>
        {modelStateLabel(status.state, t)}
        {status.state === 'downloading' && status.progress !== undefined ? ` ${f.percent(status.progress)}` : ''}
      </Badge>
      {status.state === 'downloading' && (
        <Progress value={(status.progress ?? 0) * 100} size="sm" aria-label={t('models.downloading', { model: status.model })} />
      )}
      {status.error && (
        <Text size="xs" c="red">
          {status.state === 'missing' ? t('models.errorMissing') : t('models.errorFailed')}{' '}
          <Text span size="xs" c="dimmed" title={t('common.serverSaid')} translate="no">
            {status.error}
          </Text>
        </Text>
      )}
      {status.imported_at && (
        <Text size="xs" c="dimmed">
          {t('models.importedOffline')}
        </Text>
      )}
    </Stack>
  );
}

/** Presets and models in use: state (loaded / missing / downloading), download with progress, or load a folder. */
export function ModelsSection() {
  const { t } = useTranslation();
  const client = useClient();
  const [pending, setPending] = useState<Set<string>>(new Set());
  const [error, setError] = useState<unknown>(null);
  const [folder, setFolder] = useState('');
  const [imported, setImported] = useState<ImportedModel | null>(null);
  const presets = useQuery(() => client.listModelPresets({}), [client]);
  const status = useQuery(() => client.modelStatus({}), [client], { intervalMs: pending.size > 0 ? 700 : 5000 });

  async function load(model: string, kind: 'embedding' | 'rerank') {
    setError(null);
    setPending((p) => new Set(p).add(model));
    status.reload();
    try {
      await client.loadModel({ model, kind, allow_download: true });
    } catch (err) {
      setError(err);
    } finally {
      setPending((p) => {
        const next = new Set(p);
        next.delete(model);
        return next;
      });
      status.reload();
    }
  }

  /** Check the folder and copy it into the data folder: it loads from there from then on, with no network. */
  async function importFolder(path: string) {
    setError(null);
    setImported(null);
    setPending((p) => new Set(p).add(path));
    try {
      setImported(await client.importModel({ path }));
    } catch (err) {
      setError(err);
    } finally {
      setPending((p) => {
        const next = new Set(p);
        next.delete(path);
        return next;
      });
      status.reload();
    }
  }

  const find = (name: string, modelId?: string) => status.data?.find((s) => s.model === name || (modelId && s.resolved === modelId));
  const inUse = (status.data ?? []).filter((s) => !(presets.data ?? []).some((p) => p.name === s.model));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="models-title">
      <Stack>
        <Title order={3} size="h4" id="models-title">
          {t('models.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('models.intro')}
        </Text>
        <ErrorAlert error={error} title={t('models.loadError')} />
        <ErrorAlert error={presets.error ?? status.error} title={t('models.stateError')} />
        <Table.ScrollContainer minWidth={700}>
          <Table verticalSpacing="sm" aria-label={t('models.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('models.colPreset')}</Table.Th>
                <Table.Th>{t('models.colKind')}</Table.Th>
                <Table.Th>{t('models.colLanguages')}</Table.Th>
                <Table.Th miw={130}>{t('models.colState')}</Table.Th>
                <Table.Th>
                  <span className="sr-only">{t('models.colAction')}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(presets.data ?? []).map((p) => {
                const s = find(p.name, p.model_id);
                return (
                  <Table.Tr key={`${p.kind}/${p.name}`}>
                    <Table.Td>
                      <Text fw={500} title={p.model_id}>
                        {p.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {presetDescription(p.name, p.description, t)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{kindLabel(p.kind, t)}</Table.Td>
                    <Table.Td>
                      {p.languages.map((l) => (l === 'multilingual' ? t('models.multilingual') : l)).join(t('common.listSeparator'))}
                    </Table.Td>
                    <Table.Td>
                      <StateBadge status={s} />
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="light"
                        loading={pending.has(p.name)}
                        disabled={s?.state === 'loaded'}
                        onClick={() => void load(p.name, p.kind)}
                        aria-label={t('models.downloadNamed', { model: p.name })}
                      >
                        {s?.state === 'loaded' ? t('models.loaded') : t('models.download')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
              {inUse.map((s) => (
                <Table.Tr key={`${s.kind}/${s.model}`}>
                  <Table.Td>
                    <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {s.model}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('models.folderModel')}
                      {s.dim ? ` · ${t('models.dims', { dim: s.dim })}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>{kindLabel(s.kind, t)}</Table.Td>
                  <Table.Td>—</Table.Td>
                  <Table.Td>
                    <StateBadge status={s} />
                  </Table.Td>
                  <Table.Td />
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group align="flex-end">
          <TextInput
            label={t('models.folder')}
            description={t('models.folderHint')}
            value={folder}
            onChange={(e) => setFolder(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button
            variant="light"
            disabled={!folder.trim()}
            loading={pending.has(folder.trim())}
            onClick={() => void load(folder.trim(), 'embedding')}
          >
            {t('models.loadFolder')}
          </Button>
          <Button
            variant="light"
            disabled={!folder.trim()}
            loading={pending.has(folder.trim())}
            onClick={() => void importFolder(folder.trim())}
            title={t('models.importHint')}
          >
            {t('models.import')}
          </Button>
        </Group>
        {imported && (
          <Text size="sm" c="teal" role="status">
            {t('models.imported', { model: imported.model })}{' '}
            {imported.preset
              ? t('models.importedPreset', { preset: imported.preset })
              : t('models.importedFolder', { model: imported.model })}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
