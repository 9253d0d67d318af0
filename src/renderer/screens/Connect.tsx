import { Alert, Anchor, Badge, Code, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useApi } from '../api/context.js';
import { CopyBlock, ErrorAlert } from '../components/common.js';
import { agentConfigs, headlessStdio, type AgentConfigInput } from '../lib/agent-configs.js';
import { routeHref } from '../lib/router.js';
import { useQuery } from '../lib/use-query.js';

/** Ready-to-copy MCP configs: Claude Desktop (stdio), Cursor and VS Code (stdio and HTTP with a bearer token). */
export function ConnectScreen() {
  const { t } = useTranslation();
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
  const configs = agentConfigs({ stdio, httpUrl, token: token || t('connect.tokenPlaceholder') });

  return (
    <Stack>
      <Title order={2}>{t('nav.connect')}</Title>
      <Text>
        <Trans i18nKey="connect.intro" components={{ b: <b />, link: <Anchor href={routeHref({ name: 'settings' })} /> }} />
      </Text>
      <ErrorAlert error={info.error} title={t('connect.infoError')} />
      {!desktop && (
        <Alert color="blue" variant="light">
          <Trans i18nKey="connect.webNote" components={{ code: <Code /> }} />
        </Alert>
      )}
      {desktop && info.data && !info.data.server.running && <Alert color="yellow">{t('connect.serverOff')}</Alert>}
      <PasswordInput
        label={t('connect.tokenLabel')}
        description={t('connect.tokenDescription')}
        visibilityToggleButtonProps={{ 'aria-label': t('common.togglePassword') }}
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
                {t('connect.pasteInto', { where: t(c.where) })}
              </Text>
              <CopyBlock value={c.text} label={t('connect.copyConfig', { client: c.client, transport: c.transport })} />
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
