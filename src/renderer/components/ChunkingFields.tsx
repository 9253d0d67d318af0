import { Group, NumberInput, Select } from '@mantine/core';
import { CHUNK_STRATEGIES, type ChunkingConfig, type ChunkStrategy } from '../../shared/contract/index.js';

export const STRATEGY_LABELS: Record<ChunkStrategy, string> = {
  whole: 'Whole document (one chunk)',
  sentence: 'Sentences',
  token: 'Fixed token windows',
  markdown: 'Headings and paragraphs',
  semantic: 'Semantic (topic shifts)',
};

const STRATEGY_OPTIONS = CHUNK_STRATEGIES.map((s) => ({ value: s, label: STRATEGY_LABELS[s] }));

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
  const overlapError = value.chunk_overlap >= value.chunk_size ? 'Overlap must be smaller than the chunk size' : undefined;
  return (
    <Group grow align="flex-start">
      <Select
        id={`${idPrefix}-strategy`}
        label="Chunking strategy"
        data={STRATEGY_OPTIONS}
        value={value.strategy}
        allowDeselect={false}
        onChange={(v) => v && onChange({ ...value, strategy: v as ChunkStrategy })}
      />
      <NumberInput
        id={`${idPrefix}-size`}
        label="Chunk size (tokens)"
        min={16}
        max={8192}
        step={32}
        value={value.chunk_size}
        onChange={(v) => typeof v === 'number' && onChange({ ...value, chunk_size: v })}
        disabled={value.strategy === 'whole'}
      />
      <NumberInput
        id={`${idPrefix}-overlap`}
        label="Overlap (tokens)"
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
