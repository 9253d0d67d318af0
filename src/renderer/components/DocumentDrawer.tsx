import { Badge, Button, Code, Drawer, Group, Loader, Pagination, ScrollArea, Stack, Table, Tabs, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { DocumentFull } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { useFormat } from '../i18n/format.js';
import { useQuery } from '../lib/use-query.js';
import { ChunkCard } from './ChunkCard.js';
import { chunkingSummary } from './ChunkingFields.js';
import { ConfirmModal, ErrorAlert } from './common.js';
import { IconTrash } from './icons.js';
import { usePaginationLabels } from './pagination.js';

const PER_PAGE = 20;
/** Longer content is cut in the view (it stays whole in the store and in the chunks). */
const MAX_SHOWN = 300_000;

function Metadata({ doc }: { doc: DocumentFull }) {
  const { t } = useTranslation();
  const f = useFormat();
  // Text read by OCR (a scan, an image): how many pages, how sure, in which languages.
  const ocrPages = Array.isArray(doc.metadata.ocr_pages) ? doc.metadata.ocr_pages.length : 0;
  const ocrConfidence = doc.metadata.ocr_confidence;
  const ocrLanguages = Array.isArray(doc.metadata.ocr_languages) ? doc.metadata.ocr_languages.join(', ') : '';
  const pagesRead = t('health.ocrPages', { count: ocrPages });
  const ocr = !ocrPages
    ? ''
    : [
        typeof ocrConfidence === 'number' ? t('health.ocrConfidence', { pages: pagesRead, percent: f.percent(ocrConfidence) }) : pagesRead,
        ocrLanguages,
      ]
        .filter(Boolean)
        .join(' · ');
  const rows: Array<[string, string]> = [
    [t('doc.id'), doc.doc_id],
    [t('doc.source'), doc.source],
    [t('doc.parser'), ocr ? `${doc.parser} · ${ocr}` : doc.parser],
    [t('doc.chunking'), chunkingSummary(doc.chunking, t)],
    [t('doc.chunks'), f.number(doc.chunk_count)],
    [t('doc.size'), t('counts.characters', { count: doc.size })],
    [t('doc.added'), f.date(doc.created_at)],
    [t('doc.updated'), f.date(doc.updated_at)],
    ...Object.entries(doc.metadata).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  ];
  return (
    <Table withRowBorders={false} verticalSpacing={2} aria-label={t('doc.metadataLabel')}>
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th w={120} scope="row">
              <Text size="sm" c="dimmed">
                {k}
              </Text>
            </Table.Th>
            <Table.Td>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {v}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function ChunkViewer({ kbId, docId, target }: { kbId: string; docId: string; target?: number }) {
  const { t } = useTranslation();
  const client = useClient();
  const [page, setPage] = useState(target !== undefined ? Math.floor(target / PER_PAGE) + 1 : 1);
  const chunks = useQuery(
    () => client.listChunks({ kb_id: kbId, doc_id: docId, offset: (page - 1) * PER_PAGE, limit: PER_PAGE }),
    [client, kbId, docId, page],
  );
  useEffect(() => {
    if (target === undefined || !chunks.data) return;
    document.getElementById(`chunk-${target}`)?.scrollIntoView({ block: 'center' });
  }, [chunks.data, target]);
  const pages = Math.max(1, Math.ceil((chunks.data?.total ?? 0) / PER_PAGE));
  return (
    <Stack gap="xs" data-testid="chunk-viewer">
      <ErrorAlert error={chunks.error} title={t('doc.chunksError')} />
      {chunks.loading && !chunks.data && <Loader size="sm" aria-label={t('doc.chunksLoading')} />}
      {chunks.data && (
        <Text size="sm" c="dimmed">
          {t('doc.chunksPage', { chunks: t('counts.chunks', { count: chunks.data.total }), page, pages })}
        </Text>
      )}
      {chunks.data?.chunks.map((c) => (
        <ChunkCard key={c.chunk_index} chunk={c} target={c.chunk_index === target} id={`chunk-${c.chunk_index}`} />
      ))}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" {...usePaginationLabels()} />}
    </Stack>
  );
}

/** A document: metadata, full content (as text), its chunks 20 per page, delete. Opens at a chunk from search. */
export function DocumentDrawer({
  kbId,
  docId,
  chunk,
  onClose,
  onDeleted,
}: {
  kbId: string;
  docId: string | undefined;
  chunk?: number;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const client = useClient();
  const doc = useQuery(() => client.getDocument({ kb_id: kbId, doc_id: docId! }), [client, kbId, docId], { enabled: Boolean(docId) });
  const [tab, setTab] = useState<string | null>(chunk !== undefined ? 'chunks' : 'content');
  const [confirm, setConfirm] = useState(false);
  useEffect(() => {
    setTab(chunk !== undefined ? 'chunks' : 'content');
  }, [docId, chunk]);
  const d = doc.data && doc.data.doc_id === docId ? doc.data : undefined;

  return (
    <Drawer
      opened={Boolean(docId)}
      onClose={onClose}
      position="right"
      size="xl"
      title={<Text fw={600}>{d?.title ?? docId}</Text>}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="document-drawer"
    >
      <Stack>
        <ErrorAlert error={doc.error} title={t('doc.openError')} />
        {!d && !doc.error && <Loader aria-label={t('doc.loading')} />}
        {d && (
          <>
            <Metadata doc={d} />
            <Group>
              <Button color="red" variant="light" size="xs" leftSection={<IconTrash size={14} />} onClick={() => setConfirm(true)}>
                {t('doc.delete')}
              </Button>
            </Group>
            <Tabs value={tab} onChange={setTab} keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="content">{t('doc.tabContent')}</Tabs.Tab>
                <Tabs.Tab value="chunks">
                  {t('doc.tabChunks')}{' '}
                  <Badge size="xs" variant="light">
                    {f.number(d.chunk_count)}
                  </Badge>
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="content" pt="sm">
                <ScrollArea.Autosize mah="60vh" type="auto">
                  <Text className="doc-text" component="div" data-testid="document-content">
                    {d.content.length > MAX_SHOWN ? `${d.content.slice(0, MAX_SHOWN)}\n\n…` : d.content}
                  </Text>
                </ScrollArea.Autosize>
                {d.content.length > MAX_SHOWN && (
                  <Text size="xs" c="dimmed" mt="xs">
                    {t('doc.truncated', { shown: f.number(MAX_SHOWN), total: f.number(d.content.length) })}
                  </Text>
                )}
              </Tabs.Panel>
              <Tabs.Panel value="chunks" pt="sm">
                <ChunkViewer kbId={kbId} docId={d.doc_id} target={chunk} />
              </Tabs.Panel>
            </Tabs>
          </>
        )}
      </Stack>
      <ConfirmModal
        opened={confirm}
        title={t('doc.deleteTitle')}
        confirmLabel={t('common.delete')}
        onClose={() => setConfirm(false)}
        onConfirm={async () => {
          if (!d) return;
          await client.deleteDocument({ kb_id: kbId, doc_id: d.doc_id });
          onDeleted();
        }}
      >
        <Trans
          i18nKey="doc.deleteText"
          values={{ title: d?.title ?? '', chunks: t('counts.chunks', { count: d?.chunk_count ?? 0 }) }}
          components={{ code: <Code /> }}
        />
      </ConfirmModal>
    </Drawer>
  );
}
