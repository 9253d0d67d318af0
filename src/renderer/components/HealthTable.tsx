import { Badge, Group, Loader, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HEALTH_STATUSES, type HealthEntry, type HealthStatus } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { useFormat, type Formatters } from '../i18n/format.js';
import type { T } from '../i18n/index.js';
import { useQuery } from '../lib/use-query.js';
import { EmptyHint, ErrorAlert } from './common.js';
import { IconSearch } from './icons.js';

const COLOR: Record<HealthStatus, string> = {
  encrypted: 'red',
  corrupt: 'red',
  too_large: 'red',
  unsupported: 'red',
  error: 'red',
  no_text_layer: 'orange',
  empty: 'orange',
  duplicate: 'gray',
  decode_problem: 'yellow',
  language_not_covered: 'yellow',
  ocr_low_confidence: 'yellow',
  unchanged: 'teal',
  ok: 'teal',
};

const LABEL = {
  encrypted: 'health.encrypted',
  corrupt: 'health.corrupt',
  too_large: 'health.tooLarge',
  unsupported: 'health.unsupported',
  error: 'health.error',
  no_text_layer: 'health.noTextLayer',
  empty: 'health.empty',
  duplicate: 'health.duplicate',
  decode_problem: 'health.decodeProblem',
  language_not_covered: 'health.languageNotCovered',
  ocr_low_confidence: 'health.ocrLowConfidence',
  unchanged: 'health.unchanged',
  ok: 'health.ok',
} as const satisfies Record<HealthStatus, string>;

/** Why, in the UI language (the server's own words follow, smaller). */
const WHY = {
  encrypted: 'health.whyEncrypted',
  corrupt: 'health.whyCorrupt',
  too_large: 'health.whyTooLarge',
  unsupported: 'health.whyUnsupported',
  error: 'health.whyError',
  no_text_layer: 'health.whyNoTextLayer',
  empty: 'health.whyEmpty',
  duplicate: 'health.whyDuplicate',
  decode_problem: 'health.whyDecodeProblem',
  language_not_covered: 'health.whyLanguageNotCovered',
  ocr_low_confidence: 'health.whyOcrLowConfidence',
  unchanged: 'health.whyUnchanged',
  ok: 'health.whyOk',
} as const satisfies Record<HealthStatus, string>;

const SCRIPT = {
  latin: 'health.scriptLatin',
  cyrillic: 'health.scriptCyrillic',
  cjk: 'health.scriptCjk',
  greek: 'health.scriptGreek',
  arabic: 'health.scriptArabic',
  hebrew: 'health.scriptHebrew',
  devanagari: 'health.scriptDevanagari',
  thai: 'health.scriptThai',
  other: 'health.scriptOther',
} as const;

function why(e: HealthEntry, t: T): string {
  if (e.status === 'duplicate' && e.duplicate_of) return t('health.whyDuplicateOf', { doc: e.duplicate_of });
  return t(WHY[e.status]);
}

function facts(e: HealthEntry, t: T, f: Formatters): string {
  const script = e.script ? (Object.hasOwn(SCRIPT, e.script) ? t(SCRIPT[e.script as keyof typeof SCRIPT]) : e.script) : '';
  return [
    e.encoding
      ? t('health.encoding', {
          encoding:
            e.encoding_confidence !== undefined
              ? t('health.confidence', { encoding: e.encoding, percent: f.percent(e.encoding_confidence) })
              : e.encoding,
        })
      : '',
    script ? t('health.script', { script }) : '',
    e.ocr_pages
      ? e.ocr_confidence !== undefined
        ? t('health.ocrConfidence', { pages: t('health.ocrPages', { count: e.ocr_pages }), percent: f.percent(e.ocr_confidence) })
        : t('health.ocrPages', { count: e.ocr_pages })
      : '',
    e.chunks !== undefined ? t('counts.chunks', { count: e.chunks }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The KB's ingestion health: one row per file ingested through a folder source or `ragdesk add`, worst first. */
export function HealthTable({ kbId, refreshKey }: { kbId: string; refreshKey: number }) {
  const { t } = useTranslation();
  const f = useFormat();
  const client = useClient();
  const [status, setStatus] = useState<string | null>('problems');
  const [text, setText] = useState('');
  const [needle] = useDebouncedValue(text.trim().toLowerCase(), 200);
  const report = useQuery(
    () =>
      client.healthReport({
        kb_id: kbId,
        limit: 2000,
        ...(status === 'problems' ? { problems: true } : status && status !== 'all' ? { status: [status as HealthStatus] } : {}),
      }),
    [client, kbId, status, refreshKey],
    { intervalMs: 5000 },
  );
  const rows = (report.data?.files ?? []).filter((e) => !needle || e.file.toLowerCase().includes(needle));
  const counts = report.data?.counts ?? {};
  const options = [
    { value: 'problems', label: t('health.problemsOnly') },
    { value: 'all', label: t('health.allFiles') },
    ...HEALTH_STATUSES.filter((s) => counts[s]).map((s) => ({
      value: s,
      label: t('health.statusOption', { status: t(LABEL[s]), count: counts[s] ?? 0 }),
    })),
  ];

  return (
    <Stack component="section" aria-labelledby="health-title">
      <Group justify="space-between" align="flex-end">
        <div>
          <Text fw={600} size="lg" id="health-title">
            {t('health.title')}
          </Text>
          <Text size="sm" c="dimmed">
            {Object.keys(counts).length
              ? HEALTH_STATUSES.filter((s) => counts[s])
                  .map((s) => t('health.statusCount', { status: t(LABEL[s]), count: counts[s] ?? 0 }))
                  .join(' · ')
              : t('health.intro')}
          </Text>
        </div>
        <Group>
          <Select aria-label={t('health.filterStatus')} data={options} value={status} onChange={setStatus} w={220} allowDeselect={false} />
          <TextInput
            aria-label={t('health.filterFile')}
            placeholder={t('health.filePlaceholder')}
            leftSection={<IconSearch size={14} />}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            w={200}
          />
        </Group>
      </Group>
      <ErrorAlert error={report.error} title={t('health.readError')} />
      {report.loading && !report.data ? (
        <Loader aria-label={t('health.loading')} />
      ) : rows.length === 0 ? (
        <EmptyHint title={status === 'problems' ? t('health.noProblems') : t('health.noFiles')}>
          {status === 'problems' ? t('health.allFine') : t('health.nothingMatches')}
        </EmptyHint>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped verticalSpacing="xs" aria-label={t('health.title')} data-testid="health-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('health.colFile')}</Table.Th>
                <Table.Th>{t('health.colStatus')}</Table.Th>
                <Table.Th>{t('health.colIndexed')}</Table.Th>
                <Table.Th>{t('health.colWhy')}</Table.Th>
                <Table.Th>{t('health.colChecked')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((e) => (
                <Table.Tr key={`${e.source_id ?? ''}:${e.file}`} data-status={e.status}>
                  <Table.Td style={{ overflowWrap: 'anywhere', minWidth: 160 }}>
                    {e.file}
                    {e.source_id && (
                      <Text size="xs" c="dimmed">
                        {e.source_id}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td style={{ minWidth: 170 }}>
                    <Badge color={COLOR[e.status]} variant="light" style={{ textTransform: 'none', maxWidth: 'none' }}>
                      {t(LABEL[e.status])}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{e.indexed ? t('common.yes') : t('common.no')}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Text size="sm">{why(e, t)}</Text>
                    {e.message && (
                      <Text size="xs" c="dimmed" title={t('common.serverSaid')} translate="no">
                        {e.message}
                      </Text>
                    )}
                    {facts(e, t, f) && (
                      <Text size="xs" c="dimmed">
                        {facts(e, t, f)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{f.date(e.checked_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
