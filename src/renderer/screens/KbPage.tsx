import { Anchor, Badge, Breadcrumbs, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isFullTextOnly } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { ErrorAlert } from '../components/common.js';
import { DocumentDrawer } from '../components/DocumentDrawer.js';
import { DocumentsTable } from '../components/DocumentsTable.js';
import { HealthTable } from '../components/HealthTable.js';
import { IconPencil } from '../components/icons.js';
import { IngestPanel } from '../components/IngestPanel.js';
import { KbForm } from '../components/KbForm.js';
import { SourcesPanel } from '../components/SourcesPanel.js';
import { navigate, routeHref } from '../lib/router.js';
import { useQuery } from '../lib/use-query.js';

/** One KB: its facts, the drop zone with chunk preview and progress, the documents and the document drawer. */
export function KbScreen({ kbId, docId, chunk }: { kbId: string; docId?: string; chunk?: number }) {
  const { t } = useTranslation();
  const client = useClient();
  const [refresh, setRefresh] = useState(0);
  const kb = useQuery(() => client.getKb({ kb_id: kbId }), [client, kbId, refresh]);
  const [editing, setEditing] = useState(false);
  const bump = () => setRefresh((r) => r + 1);

  return (
    <Stack>
      <Breadcrumbs>
        <Anchor href={routeHref({ name: 'kbs' })}>{t('nav.kbs')}</Anchor>
        <Text>{kb.data?.name ?? kbId}</Text>
      </Breadcrumbs>
      <ErrorAlert error={kb.error} title={t('kbPage.openError')} />
      {kb.loading && !kb.data && <Loader aria-label={t('common.loading')} />}
      {kb.data && (
        <>
          <Group justify="space-between" align="flex-start">
            <div>
              <Title order={2}>{kb.data.name}</Title>
              {kb.data.description && <Text c="dimmed">{kb.data.description}</Text>}
              <Group gap="xs" mt="xs">
                <Badge variant="light" data-testid="kb-counts">
                  {t('counts.documents', { count: kb.data.document_count })} · {t('counts.chunks', { count: kb.data.chunk_count })}
                </Badge>
                {!kb.data.enabled && <Badge color="gray">{t('kbPage.disabled')}</Badge>}
                <Badge variant="outline" color="gray" style={{ textTransform: 'none' }} title={kb.data.embedding_model}>
                  {isFullTextOnly(kb.data.embedding_model)
                    ? t('kbPage.fullTextOnly')
                    : t('kbPage.model', { model: kb.data.embedding_model.split(/[\\/]/).pop() ?? '' })}
                </Badge>
                {kb.data.languages.length > 0 && (
                  <Badge variant="outline" color="gray">
                    {kb.data.languages.join(', ')}
                  </Badge>
                )}
                {kb.data.department && (
                  <Badge variant="outline" color="gray">
                    {kb.data.department}
                  </Badge>
                )}
              </Group>
            </div>
            <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
              {t('common.edit')}
            </Button>
          </Group>
          <IngestPanel key={kb.data.kb_id} kb={kb.data} onAdded={bump} />
          <SourcesPanel kbId={kbId} onChanged={bump} />
          <DocumentsTable kbId={kbId} refreshKey={refresh} onOpen={(id) => navigate({ name: 'kb', kbId, docId: id })} />
          <HealthTable kbId={kbId} refreshKey={refresh} />
          <KbForm opened={editing} kb={kb.data} onClose={() => setEditing(false)} onSaved={bump} />
        </>
      )}
      <DocumentDrawer
        kbId={kbId}
        docId={docId}
        chunk={chunk}
        onClose={() => navigate({ name: 'kb', kbId })}
        onDeleted={() => {
          bump();
          navigate({ name: 'kb', kbId });
        }}
      />
    </Stack>
  );
}
