import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Hit, SearchMode, SearchResult } from '../../shared/contract/index.js';
import { useApi, useClient } from '../api/context.js';
import { formatLocation, HighlightedText } from '../components/ChunkCard.js';
import { EmptyHint, ErrorAlert } from '../components/common.js';
import { FilterBuilder } from '../components/FilterBuilder.js';
import { IconSearch } from '../components/icons.js';
import { useFormat } from '../i18n/format.js';
import { BUILTIN_FILTER_FIELDS, buildFilter, type FilterRow } from '../lib/filters.js';
import type { StemTerms } from '../lib/highlight.js';
import { navigate } from '../lib/router.js';
import { useQuery } from '../lib/use-query.js';

const ALL = '__all__';

function HitCard({
  hit,
  query,
  stems,
  marks,
  kbName,
}: {
  hit: Hit;
  query: string;
  stems?: StemTerms;
  marks?: Array<[number, number]>;
  kbName: string;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const where = formatLocation(hit.location, t);
  const title = hit.title || hit.doc_id;
  const open = () => navigate({ name: 'kb', kbId: hit.kb_id, docId: hit.doc_id, chunk: hit.chunk_index });
  const { desktop } = useApi();
  const [fileError, setFileError] = useState<unknown>(null);
  // In the desktop app a hit from a file on this machine opens in its own application (PDFs at the page).
  const openFile = desktop
    ? () => {
        setFileError(null);
        desktop
          .openDocumentFile({ kb_id: hit.kb_id, doc_id: hit.doc_id, ...(hit.location.page ? { page: hit.location.page } : {}) })
          .catch(setFileError);
      }
    : undefined;
  return (
    <Card withBorder padding="sm" component="article" data-testid="hit" aria-label={t('search.hitAria', { title, index: hit.chunk_index })}>
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <button type="button" className="link-button" onClick={open} aria-label={t('search.openHit', { title, index: hit.chunk_index })}>
          <Text fw={600} span>
            {title}
          </Text>
        </button>
        <Badge variant="light" title={t('search.score')}>
          {f.decimal(hit.score, 3)}
        </Badge>
      </Group>
      <Group justify="space-between" wrap="nowrap" mb={6}>
        <Text size="xs" c="dimmed" data-testid="citation">
          {t('search.citation', { kb: kbName, doc: hit.doc_id, index: hit.chunk_index })}
          {where ? ` · ${where}` : ''}
        </Text>
        {openFile && (
          <Button size="compact-xs" variant="subtle" onClick={openFile} aria-label={t('search.openFileNamed', { title })}>
            {t('search.openFile')}
          </Button>
        )}
      </Group>
      <ErrorAlert error={fileError} title={t('search.openFileError')} />
      <Text className="doc-text" component="div" lineClamp={8}>
        <HighlightedText text={hit.text} query={query} {...(stems ? { stems } : {})} {...(marks ? { marks } : {})} />
      </Text>
    </Card>
  );
}

/** Try queries the way an agent would: one KB or all, mode, rerank, top_k, metadata filters. */
export function SearchScreen() {
  const { t } = useTranslation();
  const client = useClient();
  const kbs = useQuery(() => client.listKbs({}), [client]);
  const [query, setQuery] = useState('');
  const [kbId, setKbId] = useState<string>(ALL);
  const [mode, setMode] = useState<SearchMode>('hybrid');
  const [rerank, setRerank] = useState(false);
  const [topK, setTopK] = useState<number>(10);
  const [rows, setRows] = useState<FilterRow[]>([]);
  const [result, setResult] = useState<{ query: string; result: SearchResult; stems?: StemTerms } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const fieldTypes = useMemo(() => {
    const types: Record<string, string> = { ...BUILTIN_FILTER_FIELDS };
    for (const kb of kbs.data ?? []) if (kbId === ALL || kb.kb_id === kbId) Object.assign(types, kb.metadata_fields);
    return types;
  }, [kbs.data, kbId]);
  const names = new Map((kbs.data ?? []).map((k) => [k.kb_id, k.name]));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!query.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const filter = buildFilter(rows, fieldTypes);
      const r = await client.search({
        query,
        mode,
        top_k: topK,
        use_rerank: rerank,
        ...(kbId !== ALL ? { kb_ids: [kbId] } : {}),
        ...(filter ? { filter } : {}),
      });
      // Mark what full-text search matched (the index's analyzer, whole words); literal whole words if this call fails.
      const stems = await client.highlightTerms({ query, texts: r.hits.map((h) => h.text) }).catch(() => undefined);
      setResult({ query, result: r, ...(stems ? { stems } : {}) });
    } catch (err) {
      setError(err);
      setResult(null);
    } finally {
      setBusy(false);
    }
  }

  const modeLabel = (m: SearchMode) => (m === 'hybrid' ? t('search.hybrid') : m === 'vector' ? t('search.vector') : t('search.fts'));
  const kbOptions = [{ value: ALL, label: t('search.allKbs') }, ...(kbs.data ?? []).map((k) => ({ value: k.kb_id, label: k.name }))];
  return (
    <Stack>
      <Title order={2}>{t('search.title')}</Title>
      <form onSubmit={submit} role="search">
        <Stack>
          <Group align="flex-end">
            <TextInput
              label={t('search.query')}
              placeholder={t('search.queryPlaceholder')}
              value={query}
              onChange={(e) => setQuery(e.currentTarget.value)}
              style={{ flex: 1 }}
              leftSection={<IconSearch size={16} />}
              data-autofocus
              autoFocus
            />
            <Button type="submit" loading={busy} disabled={!query.trim()}>
              {t('search.submit')}
            </Button>
          </Group>
          <Group align="flex-end" gap="lg">
            <Select
              label={t('search.kb')}
              data={kbOptions}
              value={kbId}
              onChange={(v) => setKbId(v ?? ALL)}
              allowDeselect={false}
              w={260}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="mode-label">
                {t('search.mode')}
              </Text>
              <SegmentedControl
                aria-labelledby="mode-label"
                value={mode}
                onChange={(v) => setMode(v as SearchMode)}
                data={[
                  { value: 'hybrid', label: t('search.hybrid') },
                  { value: 'vector', label: t('search.vector') },
                  { value: 'fts', label: t('search.fts') },
                ]}
              />
            </Stack>
            <NumberInput
              label={t('search.topK')}
              min={1}
              max={50}
              value={topK}
              onChange={(v) => typeof v === 'number' && setTopK(v)}
              w={140}
            />
            <Switch label={t('search.rerank')} checked={rerank} onChange={(e) => setRerank(e.currentTarget.checked)} mb={6} />
          </Group>
          <FilterBuilder rows={rows} fields={Object.keys(fieldTypes)} onChange={setRows} />
        </Stack>
      </form>
      <ErrorAlert error={error} title={t('search.failed')} />
      {result?.result.degraded && (
        <Alert color="yellow" title={t('search.partial')}>
          <Text size="sm">{t('search.partialText')}</Text>
          <Text size="xs" c="dimmed" mt={2} title={t('common.serverSaid')} translate="no">
            {result.result.degraded}
          </Text>
        </Alert>
      )}
      {result && (
        <Stack gap="sm" aria-live="polite" data-testid="hits">
          <Text size="sm" c="dimmed" data-testid="hits-summary">
            {t('search.summary', { hits: t('counts.hits', { count: result.result.hits.length }), mode: modeLabel(result.result.mode) })}
            {result.result.reranked ? ` · ${t('search.reranked')}` : ''}
          </Text>
          {result.result.hits.length === 0 ? (
            <EmptyHint title={t('search.nothingFound')} icon={<IconSearch size={28} />}>
              {t('search.nothingFoundText')}
            </EmptyHint>
          ) : (
            result.result.hits.map((h, i) => (
              <HitCard
                key={`${h.kb_id}/${h.doc_id}/${h.chunk_index}`}
                hit={h}
                query={result.query}
                {...(result.stems ? { stems: result.stems } : {})}
                {...(result.stems?.marks?.[i] ? { marks: result.stems.marks[i] } : {})}
                kbName={names.get(h.kb_id) ?? h.kb_id}
              />
            ))
          )}
        </Stack>
      )}
      {!result && !error && (kbs.data?.length ?? 0) === 0 && !kbs.loading && (
        <EmptyHint
          title={t('search.nothingToSearch')}
          icon={<IconSearch size={28} />}
          action={<Button onClick={() => navigate({ name: 'kbs' })}>{t('search.createKb')}</Button>}
        >
          {t('search.nothingToSearchText')}
        </EmptyHint>
      )}
    </Stack>
  );
}
