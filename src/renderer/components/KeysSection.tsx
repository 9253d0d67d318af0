import { Alert, Badge, Button, Group, MultiSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { ApiKeyInfo, CreatedKey, KbRights } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { useFormat } from '../i18n/format.js';
import type { T } from '../i18n/index.js';
import { useQuery } from '../lib/use-query.js';
import { ConfirmModal, CopyBlock, EmptyHint, ErrorAlert } from './common.js';
import { IconKey } from './icons.js';

const ALL = '*';

function rightsLabel(r: KbRights, t: T): string {
  if (r === '*') return t('keys.allShort');
  return r.length === 0 ? t('keys.none') : r.join(t('common.listSeparator'));
}

function toRights(values: string[]): KbRights {
  return values.includes(ALL) ? '*' : values;
}

/** API keys for agents and the web console: create (shown once), per-KB read/write rights, revoke. */
export function KeysSection() {
  const { t } = useTranslation();
  const f = useFormat();
  const client = useClient();
  const keys = useQuery(() => client.listKeys({}), [client]);
  const kbs = useQuery(() => client.listKbs({}), [client]);
  const [name, setName] = useState('');
  const [read, setRead] = useState<string[]>([ALL]);
  const [write, setWrite] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyInfo | null>(null);

  const options = [{ value: ALL, label: t('keys.allKbs') }, ...(kbs.data ?? []).map((k) => ({ value: k.kb_id, label: k.name }))];
  // Picking "all" replaces the single KBs, and a single KB replaces "all".
  const pick = (set: (v: string[]) => void) => (values: string[]) => {
    const last = values[values.length - 1];
    set(last === ALL ? [ALL] : values.filter((v) => v !== ALL));
  };

  async function create(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const key = await client.createKey({ name: name.trim(), read: toRights(read), write: toRights(write) });
      setCreated(key);
      setName('');
      keys.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const denied = keys.error?.code === 'permission_denied';
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="keys-title" data-testid="keys-section">
      <Stack>
        <Title order={3} size="h4" id="keys-title">
          {t('keys.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('keys.intro')}
        </Text>
        {denied ? <Alert color="yellow">{t('keys.ownerOnly')}</Alert> : <ErrorAlert error={keys.error} title={t('keys.listError')} />}
        {created && (
          <Alert
            color="teal"
            title={t('keys.created', { name: created.name })}
            data-testid="created-key"
            withCloseButton
            onClose={() => setCreated(null)}
            closeButtonLabel={t('keys.hide')}
          >
            <Text size="sm" mb="xs">
              {t('keys.shownOnce')}
            </Text>
            <CopyBlock value={created.key} label={t('keys.copyNew')} />
          </Alert>
        )}
        {!denied && (
          <form onSubmit={create} aria-label={t('keys.createLabel')}>
            <Group align="flex-end">
              <TextInput
                label={t('common.name')}
                placeholder={t('keys.namePlaceholder')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                required
                w={200}
              />
              <MultiSelect
                label={t('keys.mayRead')}
                data={options}
                value={read}
                onChange={pick(setRead)}
                placeholder={t('keys.none')}
                w={260}
              />
              <MultiSelect
                label={t('keys.mayWrite')}
                data={options}
                value={write}
                onChange={pick(setWrite)}
                placeholder={t('keys.none')}
                w={260}
              />
              <Button type="submit" loading={busy} disabled={!name.trim()} leftSection={<IconKey size={16} />}>
                {t('keys.create')}
              </Button>
            </Group>
          </form>
        )}
        <ErrorAlert error={error} title={t('keys.createError')} />
        {keys.data && keys.data.length === 0 && (
          <EmptyHint title={t('keys.emptyTitle')} icon={<IconKey size={28} />}>
            {t('keys.emptyText')}
          </EmptyHint>
        )}
        {keys.data && keys.data.length > 0 && (
          <Table verticalSpacing="xs" aria-label={t('keys.title')} data-testid="keys-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('common.name')}</Table.Th>
                <Table.Th>{t('keys.colKey')}</Table.Th>
                <Table.Th>{t('keys.colRead')}</Table.Th>
                <Table.Th>{t('keys.colWrite')}</Table.Th>
                <Table.Th>{t('keys.colLastUsed')}</Table.Th>
                <Table.Th>
                  <span className="sr-only">{t('keys.revoke')}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.map((k) => (
                <Table.Tr key={k.id} data-key-name={k.name}>
                  <Table.Td>{k.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="outline" color="gray" style={{ textTransform: 'none' }}>
                      {k.prefix}…
                    </Badge>
                  </Table.Td>
                  <Table.Td>{rightsLabel(k.read, t)}</Table.Td>
                  <Table.Td>{rightsLabel(k.write, t)}</Table.Td>
                  <Table.Td>{f.date(k.last_used_at)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      color="red"
                      variant="subtle"
                      onClick={() => setRevoking(k)}
                      aria-label={t('keys.revokeNamed', { name: k.name })}
                    >
                      {t('keys.revoke')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <ConfirmModal
        opened={revoking !== null}
        title={t('keys.revokeTitle')}
        confirmLabel={t('keys.revoke')}
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await client.revokeKey({ key: revoking.id });
          keys.reload();
        }}
      >
        <Trans i18nKey="keys.revokeText" values={{ name: revoking?.name ?? '' }} components={{ b: <b /> }} />
      </ConfirmModal>
    </Paper>
  );
}
