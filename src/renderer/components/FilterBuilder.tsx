import { ActionIcon, Autocomplete, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { FILTER_OPS, type FilterOp } from '../../shared/contract/index.js';
import type { T } from '../i18n/index.js';
import type { FilterRow } from '../lib/filters.js';
import { IconPlus, IconX } from './icons.js';

let nextRow = 0;

/** Operators as symbols where one exists, else in words. */
function opLabel(op: FilterOp, t: T): string {
  switch (op) {
    case 'eq':
      return '=';
    case 'ne':
      return '≠';
    case 'gt':
      return '>';
    case 'gte':
      return '≥';
    case 'lt':
      return '<';
    case 'lte':
      return '≤';
    case 'in':
      return t('filters.opIn');
    case 'nin':
      return t('filters.opNin');
    case 'contains':
      return t('filters.opContains');
    case 'exists':
      return t('filters.opExists');
  }
}

/** Rows of `field op value`, ANDed. Field names come from the built-in fields and the KBs' metadata. */
export function FilterBuilder({ rows, fields, onChange }: { rows: FilterRow[]; fields: string[]; onChange: (rows: FilterRow[]) => void }) {
  const { t } = useTranslation();
  const ops = FILTER_OPS.map((op) => ({ value: op, label: opLabel(op, t) }));
  const set = (id: number, patch: Partial<FilterRow>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  return (
    <Stack gap="xs" role="group" aria-label={t('filters.group')}>
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          <Trans i18nKey="filters.none" components={{ i: <i /> }} />
        </Text>
      )}
      {rows.map((row, i) => (
        <Group key={row.id} gap="xs" align="flex-end" wrap="nowrap" data-testid="filter-row">
          <Autocomplete
            label={i === 0 ? t('filters.field') : undefined}
            aria-label={t('filters.fieldAria', { n: i + 1 })}
            data={fields}
            value={row.field}
            onChange={(v) => set(row.id, { field: v })}
            placeholder={t('filters.fieldPlaceholder')}
            w={180}
          />
          <Select
            label={i === 0 ? t('filters.operator') : undefined}
            aria-label={t('filters.operatorAria', { n: i + 1 })}
            data={ops}
            value={row.op}
            allowDeselect={false}
            onChange={(v) => v && set(row.id, { op: v as FilterOp })}
            w={170}
          />
          <TextInput
            label={i === 0 ? t('filters.value') : undefined}
            aria-label={t('filters.valueAria', { n: i + 1 })}
            value={row.value}
            onChange={(e) => set(row.id, { value: e.currentTarget.value })}
            placeholder={row.op === 'in' || row.op === 'nin' ? t('filters.listPlaceholder') : t('filters.valuePlaceholder')}
            style={{ flex: 1 }}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('filters.removeAria', { n: i + 1 })}
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
          {t('filters.add')}
        </Button>
      </Group>
    </Stack>
  );
}
