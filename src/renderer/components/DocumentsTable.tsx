import { Group, Loader, Pagination, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useClient } from '../api/context.js';
import { formatChars } from '../lib/files.js';
import { useQuery } from '../lib/use-query.js';
import { EmptyHint, ErrorAlert, formatDate } from './common.js';
import { IconFile, IconSearch } from './icons.js';

const PAGE = 20;

/** The KB's documents, newest first, paginated, filtered by title. */
export function DocumentsTable({ kbId, refreshKey, onOpen }: { kbId: string; refreshKey: number; onOpen: (docId: string) => void }) {
  const client = useClient();
  const [filter, setFilter] = useState('');
  const [debounced] = useDebouncedValue(filter.trim(), 250);
  const [page, setPage] = useState(1);
  useEffect(() => {
    setPage(1);
  }, [debounced, kbId]);
  const docs = useQuery(
    () =>
      client.listDocuments({ kb_id: kbId, limit: PAGE, offset: (page - 1) * PAGE, ...(debounced ? { title_contains: debounced } : {}) }),
    [client, kbId, page, debounced, refreshKey],
  );
  const total = docs.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE));

  return (
    <Stack component="section" aria-labelledby="docs-title">
      <Group justify="space-between" align="flex-end">
        <Text fw={600} size="lg" id="docs-title">
          Documents{' '}
          {docs.data ? (
            <Text span c="dimmed">
              ({total})
            </Text>
          ) : null}
        </Text>
        <TextInput
          label="Filter by title"
          placeholder="Type part of a title"
          leftSection={<IconSearch size={14} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          w={260}
        />
      </Group>
      <ErrorAlert error={docs.error} title="Could not list documents" />
      {docs.loading && !docs.data ? (
        <Loader aria-label="Loading documents" />
      ) : total === 0 ? (
        <EmptyHint title={debounced ? 'No document matches this title' : 'No documents yet'} icon={<IconFile size={28} />}>
          {debounced
            ? 'Try another part of the title, or clear the filter.'
            : 'Drop files or a folder above, or use “Choose files”, to add the first documents.'}
        </EmptyHint>
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover aria-label="Documents" data-testid="documents-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Title</Table.Th>
                  <Table.Th>Parser</Table.Th>
                  <Table.Th ta="right">Size</Table.Th>
                  <Table.Th ta="right">Chunks</Table.Th>
                  <Table.Th>Updated</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {docs.data?.documents.map((d) => (
                  <Table.Tr key={d.doc_id} data-doc={d.doc_id}>
                    <Table.Td>
                      <button type="button" className="link-button" onClick={() => onOpen(d.doc_id)}>
                        {d.title || d.doc_id}
                      </button>
                      {d.title !== d.doc_id && (
                        <Text size="xs" c="dimmed">
                          {d.doc_id}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{d.parser}</Table.Td>
                    <Table.Td ta="right">{formatChars(d.size)}</Table.Td>
                    <Table.Td ta="right">{d.chunk_count}</Table.Td>
                    <Table.Td>{formatDate(d.updated_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 && (
            <Pagination total={pages} value={page} onChange={setPage} getControlProps={(c) => ({ 'aria-label': `${c} page` })} />
          )}
        </>
      )}
    </Stack>
  );
}
