import { Badge, Button, Code, Drawer, Group, Loader, Pagination, ScrollArea, Stack, Table, Tabs, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { DocumentFull } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { formatChars } from '../lib/files.js';
import { useQuery } from '../lib/use-query.js';
import { ChunkCard } from './ChunkCard.js';
import { ConfirmModal, ErrorAlert, formatDate } from './common.js';
import { IconTrash } from './icons.js';

const PER_PAGE = 20;
/** Longer content is cut in the view (it stays whole in the store and in the chunks). */
const MAX_SHOWN = 300_000;

function Metadata({ doc }: { doc: DocumentFull }) {
  const rows: Array<[string, string]> = [
    ['ID', doc.doc_id],
    ['Source', doc.source],
    ['Parser', doc.parser],
    ['Chunking', `${doc.chunking.strategy} · ${doc.chunking.chunk_size} tokens · overlap ${doc.chunking.chunk_overlap}`],
    ['Chunks', String(doc.chunk_count)],
    ['Size', formatChars(doc.size)],
    ['Added', formatDate(doc.created_at)],
    ['Updated', formatDate(doc.updated_at)],
    ...Object.entries(doc.metadata).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  ];
  return (
    <Table withRowBorders={false} verticalSpacing={2} aria-label="Document metadata">
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
      <ErrorAlert error={chunks.error} title="Could not load chunks" />
      {chunks.loading && !chunks.data && <Loader size="sm" aria-label="Loading chunks" />}
      {chunks.data && (
        <Text size="sm" c="dimmed">
          {chunks.data.total} chunks · page {page} of {pages}
        </Text>
      )}
      {chunks.data?.chunks.map((c) => (
        <ChunkCard key={c.chunk_index} chunk={c} target={c.chunk_index === target} id={`chunk-${c.chunk_index}`} />
      ))}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" />}
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
      data-testid="document-drawer"
    >
      <Stack>
        <ErrorAlert error={doc.error} title="Could not open the document" />
        {!d && !doc.error && <Loader aria-label="Loading the document" />}
        {d && (
          <>
            <Metadata doc={d} />
            <Group>
              <Button color="red" variant="light" size="xs" leftSection={<IconTrash size={14} />} onClick={() => setConfirm(true)}>
                Delete document
              </Button>
            </Group>
            <Tabs value={tab} onChange={setTab} keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="content">Content</Tabs.Tab>
                <Tabs.Tab value="chunks">
                  View chunks{' '}
                  <Badge size="xs" variant="light">
                    {d.chunk_count}
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
                    Showing the first {MAX_SHOWN.toLocaleString()} of {d.content.length.toLocaleString()} characters; every chunk is under
                    “View chunks”.
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
        title="Delete document?"
        confirmLabel="Delete"
        onClose={() => setConfirm(false)}
        onConfirm={async () => {
          if (!d) return;
          await client.deleteDocument({ kb_id: kbId, doc_id: d.doc_id });
          onDeleted();
        }}
      >
        <Code>{d?.title}</Code> and its {d?.chunk_count} chunks will be removed from this knowledge base.
      </ConfirmModal>
    </Drawer>
  );
}
