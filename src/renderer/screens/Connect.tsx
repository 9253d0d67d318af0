import { Alert, Anchor, Badge, Code, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useApi } from '../api/context.js';
import { CopyBlock, ErrorAlert } from '../components/common.js';
import { agentConfigs, headlessStdio, type AgentConfigInput } from '../lib/agent-configs.js';
import { routeHref } from '../lib/router.js';
import { useQuery } from '../lib/use-query.js';

/** Ready-to-copy MCP configs: Claude Desktop (stdio), Cursor and VS Code (stdio and HTTP with a bearer token). */
export function ConnectScreen() {
  const { client, desktop, token: sessionToken } = useApi();
  const info = useQuery(() => (desktop ? desktop.appInfo({}) : Promise.resolve(null)), [desktop]);
  const diag = useQuery(() => client.diagnostic({}), [client]);
  const [token, setToken] = useState('');

  useEffect(() => {
    if (token) return;
    const t = info.data?.token ?? sessionToken;
    if (t) setToken(t);
  }, [info.data, sessionToken, token]);

  const dataDir = info.data?.data_dir ?? diag.data?.data_dir;
  const stdio: AgentConfigInput['stdio'] = info.data ? info.data.mcp_stdio : headlessStdio(dataDir);
  const httpUrl = info.data
    ? info.data.server.url
      ? `${info.data.server.url.replace(/\/$/, '')}/mcp`
      : null
    : `${window.location.origin}/mcp`;
  const configs = agentConfigs({ stdio, httpUrl, token: token || '<your API key>' });

  return (
    <Stack>
      <Title order={2}>Connect an agent</Title>
      <Text>
        Agents reach your knowledge bases over MCP. Over <b>stdio</b> the agent starts ragdesk itself; over <b>HTTP</b> it talks to the
        running server with a bearer token. Give each agent its own key (create one in{' '}
        <Anchor href={routeHref({ name: 'settings' })}>Settings → API keys</Anchor>) and paste it below.
      </Text>
      <ErrorAlert error={info.error} title="Could not read the app's state" />
      {!desktop && (
        <Alert color="blue" variant="light">
          The stdio configs run <Code>ragdesk</Code> from your PATH (<Code>npm link</Code> in the project, or use the full path to{' '}
          <Code>bin/ragdesk.js</Code>). While this server holds the data folder, <Code>ragdesk mcp</Code> bridges to it automatically.
        </Alert>
      )}
      {desktop && info.data && !info.data.server.running && (
        <Alert color="yellow">
          The local server is off, so only stdio configs are shown. Turn it on in Settings to connect agents over HTTP.
        </Alert>
      )}
      <PasswordInput
        label="Bearer token used in the HTTP configs"
        description="An API key (recommended) or the owner token; the configs below update as you type"
        value={token}
        onChange={(e) => setToken(e.currentTarget.value)}
        w={520}
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {configs.map((c) => (
          <Paper key={c.id} withBorder p="md" data-testid={`config-${c.id}`}>
            <Stack gap="xs">
              <Group gap="xs">
                <Text fw={600}>{c.client}</Text>
                <Badge variant="light" color={c.transport === 'http' ? 'grape' : 'teal'}>
                  {c.transport}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed">
                Paste into {c.where}
              </Text>
              <CopyBlock value={c.text} label={`Copy the ${c.client} ${c.transport} config`} />
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
