import { ActionIcon, Anchor, Badge, Button, Group, Loader, Stack, Switch, Table, Text, Title, Tooltip } from '@mantine/core';
import { useState } from 'react';
import type { KbSummary } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { ConfirmModal, EmptyHint, ErrorAlert } from '../components/common.js';
import { IconDatabase, IconPencil, IconPlus, IconTrash } from '../components/icons.js';
import { KbForm } from '../components/KbForm.js';
import { navigate, routeHref } from '../lib/router.js';
import { useQuery } from '../lib/use-query.js';

export function KbListScreen() {
  const client = useClient();
  const kbs = useQuery(() => client.listKbs({}), [client]);
  const [editing, setEditing] = useState<KbSummary | 'new' | null>(null);
  const [deleting, setDeleting] = useState<KbSummary | null>(null);
  const [toggleError, setToggleError] = useState<unknown>(null);

  async function toggle(kb: KbSummary, enabled: boolean) {
    setToggleError(null);
    try {
      await client.updateKb({ kb_id: kb.kb_id, enabled });
      kbs.reload();
    } catch (err) {
      setToggleError(err);
    }
  }

  const list = kbs.data ?? [];
  return (
    <Stack data-testid="kb-list">
      <Group justify="space-between">
        <Title order={2}>Knowledge bases</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          New knowledge base
        </Button>
      </Group>
      <ErrorAlert error={kbs.error} title="Could not load knowledge bases" />
      <ErrorAlert error={toggleError} title="Could not change the knowledge base" />
      {kbs.loading && !kbs.data ? (
        <Loader aria-label="Loading knowledge bases" />
      ) : list.length === 0 && !kbs.error ? (
        <EmptyHint
          title="No knowledge bases yet"
          icon={<IconDatabase size={28} />}
          action={<Button onClick={() => setEditing('new')}>Create your first knowledge base</Button>}
        >
          A knowledge base holds documents that agents can search. Create one, then drop files or folders into it.
        </EmptyHint>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label="Knowledge bases">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Department</Table.Th>
                <Table.Th ta="right">Documents</Table.Th>
                <Table.Th ta="right">Chunks</Table.Th>
                <Table.Th>Model</Table.Th>
                <Table.Th>Enabled</Table.Th>
                <Table.Th>
                  <span className="sr-only">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((kb) => (
                <Table.Tr key={kb.kb_id} data-kb={kb.kb_id}>
                  <Table.Td>
                    <Anchor href={routeHref({ name: 'kb', kbId: kb.kb_id })} fw={500}>
                      {kb.name}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {kb.kb_id}
                      {kb.description ? ` · ${kb.description}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>{kb.department || '—'}</Table.Td>
                  <Table.Td ta="right" data-testid="kb-doc-count">
                    {kb.document_count}
                  </Table.Td>
                  <Table.Td ta="right">{kb.chunk_count}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color="gray" style={{ textTransform: 'none', maxWidth: 220 }} title={kb.embedding_model}>
                      {kb.embedding_model.split(/[\\/]/).pop()}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      checked={kb.enabled}
                      onChange={(e) => void toggle(kb, e.currentTarget.checked)}
                      aria-label={`${kb.enabled ? 'Disable' : 'Enable'} ${kb.name}`}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <Tooltip label="Edit">
                        <ActionIcon variant="subtle" aria-label={`Edit ${kb.name}`} onClick={() => setEditing(kb)}>
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Delete">
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${kb.name}`} onClick={() => setDeleting(kb)}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <KbForm
        opened={editing !== null}
        kb={editing && editing !== 'new' ? editing : undefined}
        onClose={() => setEditing(null)}
        onSaved={(kb) => {
          kbs.reload();
          if (editing === 'new') navigate({ name: 'kb', kbId: kb.kb_id });
        }}
      />
      <ConfirmModal
        opened={deleting !== null}
        title="Delete knowledge base?"
        confirmLabel="Delete"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await client.deleteKb({ kb_id: deleting.kb_id });
          kbs.reload();
        }}
      >
        {deleting && (
          <>
            <b>{deleting.name}</b> and its {deleting.document_count} documents ({deleting.chunk_count} chunks) will be deleted. Agents will
            no longer find them. This cannot be undone.
          </>
        )}
      </ConfirmModal>
    </Stack>
  );
}
