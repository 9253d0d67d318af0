import { Group, NumberInput, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CHUNK_STRATEGIES, type ChunkingConfig, type ChunkStrategy } from '../../shared/contract/index.js';
import type { T } from '../i18n/index.js';

/** Each strategy's name in the chunking select. */
export const STRATEGY_LABELS = {
  whole: 'chunking.whole',
  sentence: 'chunking.sentence',
  token: 'chunking.token',
  markdown: 'chunking.markdown',
  semantic: 'chunking.semantic',
} as const satisfies Record<ChunkStrategy, string>;

/** Each strategy's short name, for badges and summaries. */
export const STRATEGY_SHORT = {
  whole: 'chunking.shortWhole',
  sentence: 'chunking.shortSentence',
  token: 'chunking.shortToken',
  markdown: 'chunking.shortMarkdown',
  semantic: 'chunking.shortSemantic',
} as const satisfies Record<ChunkStrategy, string>;

/** "sentences · 256 tokens · overlap 32" in the UI language. */
export function chunkingSummary(c: ChunkingConfig, t: T): string {
  return t('chunking.summary', {
    strategy: t(STRATEGY_SHORT[c.strategy]),
    size: t('counts.tokens', { count: c.chunk_size }),
    overlap: c.chunk_overlap,
  });
}

/** Strategy, size and overlap (in model tokens); overlap must stay below size. */
export function ChunkingFields({
  value,
  onChange,
  idPrefix,
}: {
  value: ChunkingConfig;
  onChange: (next: ChunkingConfig) => void;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  const options = CHUNK_STRATEGIES.map((s) => ({ value: s, label: t(STRATEGY_LABELS[s]) }));
  const overlapError = value.chunk_overlap >= value.chunk_size ? t('chunking.overlapError') : undefined;
  return (
    <Group grow align="flex-start">
      <Select
        id={`${idPrefix}-strategy`}
        label={t('chunking.strategy')}
        data={options}
        value={value.strategy}
        allowDeselect={false}
        onChange={(v) => v && onChange({ ...value, strategy: v as ChunkStrategy })}
      />
      <NumberInput
        id={`${idPrefix}-size`}
        label={t('chunking.size')}
        min={16}
        max={8192}
        step={32}
        value={value.chunk_size}
        onChange={(v) => typeof v === 'number' && onChange({ ...value, chunk_size: v })}
        disabled={value.strategy === 'whole'}
      />
      <NumberInput
        id={`${idPrefix}-overlap`}
        label={t('chunking.overlap')}
        min={0}
        max={4096}
        step={8}
        value={value.chunk_overlap}
        error={overlapError}
        onChange={(v) => typeof v === 'number' && onChange({ ...value, chunk_overlap: v })}
        disabled={value.strategy === 'whole'}
      />
    </Group>
  );
}

export function chunkingValid(c: ChunkingConfig): boolean {
  return c.chunk_size >= 16 && c.chunk_size <= 8192 && c.chunk_overlap >= 0 && c.chunk_overlap < c.chunk_size;
}
