import { ActionIcon, Anchor, Badge, Button, Group, Loader, Stack, Switch, Table, Text, Title, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { isFullTextOnly, type KbSummary } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { ConfirmModal, EmptyHint, ErrorAlert } from '../components/common.js';
import { IconDatabase, IconPencil, IconPlus, IconTrash } from '../components/icons.js';
import { KbForm } from '../components/KbForm.js';
import { useFormat } from '../i18n/format.js';
import { navigate, routeHref } from '../lib/router.js';
import { useQuery } from '../lib/use-query.js';

export function KbListScreen() {
  const { t } = useTranslation();
  const f = useFormat();
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
        <Title order={2}>{t('nav.kbs')}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('kbList.new')}
        </Button>
      </Group>
      <ErrorAlert error={kbs.error} title={t('kbList.loadError')} />
      <ErrorAlert error={toggleError} title={t('kbList.toggleError')} />
      {kbs.loading && !kbs.data ? (
        <Loader aria-label={t('kbList.loading')} />
      ) : list.length === 0 && !kbs.error ? (
        <EmptyHint
          title={t('kbList.emptyTitle')}
          icon={<IconDatabase size={28} />}
          action={<Button onClick={() => setEditing('new')}>{t('kbList.createFirst')}</Button>}
        >
          {t('kbList.emptyText')}
        </EmptyHint>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label={t('nav.kbs')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('common.name')}</Table.Th>
                <Table.Th>{t('kbList.colDepartment')}</Table.Th>
                <Table.Th ta="right">{t('kbList.colDocuments')}</Table.Th>
                <Table.Th ta="right">{t('kbList.colChunks')}</Table.Th>
                <Table.Th>{t('kbList.colModel')}</Table.Th>
                <Table.Th>{t('kbList.colEnabled')}</Table.Th>
                <Table.Th>
                  <span className="sr-only">{t('kbList.colActions')}</span>
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
                    {f.number(kb.document_count)}
                  </Table.Td>
                  <Table.Td ta="right">{f.number(kb.chunk_count)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color="gray" style={{ textTransform: 'none', maxWidth: 220 }} title={kb.embedding_model}>
                      {isFullTextOnly(kb.embedding_model) ? t('kbPage.fullTextOnly') : kb.embedding_model.split(/[\\/]/).pop()}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      checked={kb.enabled}
                      onChange={(e) => void toggle(kb, e.currentTarget.checked)}
                      aria-label={kb.enabled ? t('kbList.disableNamed', { name: kb.name }) : t('kbList.enableNamed', { name: kb.name })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <Tooltip label={t('common.edit')}>
                        <ActionIcon variant="subtle" aria-label={t('kbList.editNamed', { name: kb.name })} onClick={() => setEditing(kb)}>
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('common.delete')}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('kbList.deleteNamed', { name: kb.name })}
                          onClick={() => setDeleting(kb)}
                        >
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
        title={t('kbList.deleteTitle')}
        confirmLabel={t('common.delete')}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await client.deleteKb({ kb_id: deleting.kb_id });
          kbs.reload();
        }}
      >
        {deleting && (
          <Trans
            i18nKey="kbList.deleteText"
            values={{
              name: deleting.name,
              documents: t('counts.documents', { count: deleting.document_count }),
              chunks: t('counts.chunks', { count: deleting.chunk_count }),
            }}
            components={{ b: <b /> }}
          />
        )}
      </ConfirmModal>
    </Stack>
  );
}
