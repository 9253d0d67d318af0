import { ActionIcon, Autocomplete, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import type { FilterOp } from '../../shared/contract/index.js';
import { FILTER_OP_OPTIONS, type FilterRow } from '../lib/filters.js';
import { IconPlus, IconX } from './icons.js';

let nextRow = 0;

/** Rows of `field op value`, ANDed. Field names come from the built-in fields and the KBs' metadata. */
export function FilterBuilder({ rows, fields, onChange }: { rows: FilterRow[]; fields: string[]; onChange: (rows: FilterRow[]) => void }) {
  const set = (id: number, patch: Partial<FilterRow>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  return (
    <Stack gap="xs" role="group" aria-label="Filters">
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          No filters: every chunk can match. Add one to narrow by metadata, e.g. <i>page ≥ 3</i> or <i>author = Ann</i>.
        </Text>
      )}
      {rows.map((row, i) => (
        <Group key={row.id} gap="xs" align="flex-end" wrap="nowrap" data-testid="filter-row">
          <Autocomplete
            label={i === 0 ? 'Field' : undefined}
            aria-label={`Filter ${i + 1} field`}
            data={fields}
            value={row.field}
            onChange={(v) => set(row.id, { field: v })}
            placeholder="field"
            w={180}
          />
          <Select
            label={i === 0 ? 'Operator' : undefined}
            aria-label={`Filter ${i + 1} operator`}
            data={FILTER_OP_OPTIONS}
            value={row.op}
            allowDeselect={false}
            onChange={(v) => v && set(row.id, { op: v as FilterOp })}
            w={170}
          />
          <TextInput
            label={i === 0 ? 'Value' : undefined}
            aria-label={`Filter ${i + 1} value`}
            value={row.value}
            onChange={(e) => set(row.id, { value: e.currentTarget.value })}
            placeholder={row.op === 'in' || row.op === 'nin' ? 'a, b, c' : 'value'}
            style={{ flex: 1 }}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`Remove filter ${i + 1}`}
            onClick={() => onChange(rows.filter((r) => r.id !== row.id))}
          >
            <IconX size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          variant="subtle"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => onChange([...rows, { id: ++nextRow, field: '', op: 'eq', value: '' }])}
        >
          Add filter
        </Button>
      </Group>
    </Stack>
  );
}
