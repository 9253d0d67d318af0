import { Badge, Button, Group, Paper, Progress, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { ImportedModel, ModelStatus } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { useQuery } from '../lib/use-query.js';
import { ErrorAlert } from './common.js';

const STATE_COLOR: Record<ModelStatus['state'], string> = {
  loaded: 'teal',
  missing: 'gray',
  downloading: 'blue',
  loading: 'indigo',
  error: 'red',
};

function StateBadge({ status }: { status: ModelStatus | undefined }) {
  if (!status)
    return (
      <Badge color="gray" variant="light" style={{ overflow: 'visible' }}>
        not loaded
      </Badge>
    );
  return (
    <Stack gap={2}>
      <Badge color={STATE_COLOR[status.state]} variant="light" style={{ overflow: 'visible' }}>
        {status.state}
        {status.state === 'downloading' && status.progress !== undefined ? ` ${Math.round(status.progress * 100)}%` : ''}
      </Badge>
      {status.state === 'downloading' && (
        <Progress value={(status.progress ?? 0) * 100} size="sm" aria-label={`Downloading ${status.model}`} />
      )}
      {status.error && (
        <Text size="xs" c="red">
          {status.error}
        </Text>
      )}
      {status.imported_at && (
        <Text size="xs" c="dimmed">
          imported: works offline
        </Text>
      )}
    </Stack>
  );
}

/** Presets and models in use: state (loaded / missing / downloading), download with progress, or load a folder. */
export function ModelsSection() {
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
          Models
        </Title>
        <Text size="sm" c="dimmed">
          Models run on this machine. They download once into the data folder; without one, full-text search still works.
        </Text>
        <ErrorAlert error={error} title="Could not load the model" />
        <ErrorAlert error={presets.error ?? status.error} title="Could not read model state" />
        <Table.ScrollContainer minWidth={700}>
          <Table verticalSpacing="sm" aria-label="Model presets">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Preset</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Languages</Table.Th>
                <Table.Th miw={130}>State</Table.Th>
                <Table.Th>
                  <span className="sr-only">Action</span>
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
                        {p.description}
                      </Text>
                    </Table.Td>
                    <Table.Td>{p.kind}</Table.Td>
                    <Table.Td>{p.languages.join(', ')}</Table.Td>
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
                        aria-label={`Download and load ${p.name}`}
                      >
                        {s?.state === 'loaded' ? 'Loaded' : 'Download & load'}
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
                      folder model{s.dim ? ` · ${s.dim}-d` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>{s.kind}</Table.Td>
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
            label="Load a model from a folder"
            description="The absolute path of a transformers.js model folder (config.json, tokenizer.json, onnx/)"
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
            Load folder
          </Button>
          <Button
            variant="light"
            disabled={!folder.trim()}
            loading={pending.has(folder.trim())}
            onClick={() => void importFolder(folder.trim())}
            title="Check the folder and copy it into the data folder, for use without network"
          >
            Import for offline use
          </Button>
        </Group>
        {imported && (
          <Text size="sm" c="teal" role="status">
            Imported {imported.model}
            {imported.dim ? ` (${imported.dim}-d)` : ''} into the data folder: it loads from there, no download needed.
            {imported.preset ? ` KBs on ${imported.preset} use it as they are.` : ` Choose ${imported.model} as a KB's model to use it.`}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
