import { Group, Loader, Pagination, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClient } from '../api/context.js';
import { useFormat } from '../i18n/format.js';
import { useQuery } from '../lib/use-query.js';
import { EmptyHint, ErrorAlert } from './common.js';
import { IconFile, IconSearch } from './icons.js';
import { usePaginationLabels } from './pagination.js';

const PAGE = 20;

/** The KB's documents, newest first, paginated, filtered by title. */
export function DocumentsTable({ kbId, refreshKey, onOpen }: { kbId: string; refreshKey: number; onOpen: (docId: string) => void }) {
  const { t } = useTranslation();
  const f = useFormat();
  const paginationLabels = usePaginationLabels();
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
          {t('docs.title')}{' '}
          {docs.data ? (
            <Text span c="dimmed">
              ({f.number(total)})
            </Text>
          ) : null}
        </Text>
        <TextInput
          label={t('docs.filterLabel')}
          placeholder={t('docs.filterPlaceholder')}
          leftSection={<IconSearch size={14} />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          w={260}
        />
      </Group>
      <ErrorAlert error={docs.error} title={t('docs.listError')} />
      {docs.loading && !docs.data ? (
        <Loader aria-label={t('docs.loading')} />
      ) : total === 0 ? (
        <EmptyHint title={debounced ? t('docs.noMatch') : t('docs.none')} icon={<IconFile size={28} />}>
          {debounced ? t('docs.noMatchText') : t('docs.noneText')}
        </EmptyHint>
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover aria-label={t('docs.title')} data-testid="documents-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('docs.colTitle')}</Table.Th>
                  <Table.Th>{t('docs.colParser')}</Table.Th>
                  <Table.Th ta="right">{t('docs.colSize')}</Table.Th>
                  <Table.Th ta="right">{t('docs.colChunks')}</Table.Th>
                  <Table.Th>{t('docs.colUpdated')}</Table.Th>
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
                    <Table.Td ta="right">{t('counts.characters', { count: d.size })}</Table.Td>
                    <Table.Td ta="right">{f.number(d.chunk_count)}</Table.Td>
                    <Table.Td>{f.date(d.updated_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} {...paginationLabels} />}
        </>
      )}
    </Stack>
  );
}
