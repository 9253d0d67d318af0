import { Alert, Badge, Button, Group, MultiSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { ApiKeyInfo, CreatedKey, KbRights } from '../../shared/contract/index.js';
import { useClient } from '../api/context.js';
import { useQuery } from '../lib/use-query.js';
import { ConfirmModal, CopyBlock, EmptyHint, ErrorAlert, formatDate } from './common.js';
import { IconKey } from './icons.js';

const ALL = '*';

function rightsLabel(r: KbRights): string {
  if (r === '*') return 'all KBs';
  return r.length === 0 ? 'none' : r.join(', ');
}

function toRights(values: string[]): KbRights {
  return values.includes(ALL) ? '*' : values;
}

/** API keys for agents and the web console: create (shown once), per-KB read/write rights, revoke. */
export function KeysSection() {
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

  const options = [
    { value: ALL, label: 'All knowledge bases (also future ones)' },
    ...(kbs.data ?? []).map((k) => ({ value: k.kb_id, label: k.name })),
  ];
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
          API keys
        </Title>
        <Text size="sm" c="dimmed">
          Give each agent or person its own key, limited to the knowledge bases it needs. Write implies read.
        </Text>
        {denied ? (
          <Alert color="yellow">Only the owner can manage keys. Sign in with the owner token to create or revoke keys.</Alert>
        ) : (
          <ErrorAlert error={keys.error} title="Could not list keys" />
        )}
        {created && (
          <Alert
            color="teal"
            title={`Key “${created.name}” created — copy it now`}
            data-testid="created-key"
            withCloseButton
            onClose={() => setCreated(null)}
            closeButtonLabel="Hide the key"
          >
            <Text size="sm" mb="xs">
              This is the only time the key is shown; ragdesk keeps only its hash.
            </Text>
            <CopyBlock value={created.key} label="Copy the new key" />
          </Alert>
        )}
        {!denied && (
          <form onSubmit={create} aria-label="Create an API key">
            <Group align="flex-end">
              <TextInput
                label="Name"
                placeholder="cursor-laptop"
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                required
                w={200}
              />
              <MultiSelect label="May read" data={options} value={read} onChange={pick(setRead)} placeholder="none" w={260} />
              <MultiSelect label="May write" data={options} value={write} onChange={pick(setWrite)} placeholder="none" w={260} />
              <Button type="submit" loading={busy} disabled={!name.trim()} leftSection={<IconKey size={16} />}>
                Create key
              </Button>
            </Group>
          </form>
        )}
        <ErrorAlert error={error} title="Could not create the key" />
        {keys.data && keys.data.length === 0 && (
          <EmptyHint title="No API keys yet" icon={<IconKey size={28} />}>
            Create one above for each agent; paste it into the agent's config on “Connect an agent”.
          </EmptyHint>
        )}
        {keys.data && keys.data.length > 0 && (
          <Table verticalSpacing="xs" aria-label="API keys" data-testid="keys-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>Read</Table.Th>
                <Table.Th>Write</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>
                  <span className="sr-only">Revoke</span>
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
                  <Table.Td>{rightsLabel(k.read)}</Table.Td>
                  <Table.Td>{rightsLabel(k.write)}</Table.Td>
                  <Table.Td>{formatDate(k.last_used_at)}</Table.Td>
                  <Table.Td>
                    <Button size="xs" color="red" variant="subtle" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                      Revoke
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
        title="Revoke key?"
        confirmLabel="Revoke"
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          await client.revokeKey({ key: revoking.id });
          keys.reload();
        }}
      >
        Agents using <b>{revoking?.name}</b> lose access at once.
      </ConfirmModal>
    </Paper>
  );
}
