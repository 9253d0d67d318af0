import { Alert, Button, Center, Code, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { describeError, localizeError } from '../api/errors.js';
import { verifyToken } from '../api/http-client.js';
import { LanguageSelect } from '../components/LanguageSelect.js';
import { useFormat } from '../i18n/format.js';

/** The web console's sign-in: an API key, or the owner token that `ragdesk serve` prints. */
export function SignIn({ notice, onSignedIn }: { notice: 'rejected' | null; onSignedIn: (token: string) => void }) {
  const { t } = useTranslation();
  const f = useFormat();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const value = token.trim();
    if (!value) {
      setError(t('signIn.empty'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await verifyToken(undefined, value);
      onSignedIn(value);
    } catch (err) {
      const { code } = describeError(err);
      setError(code === 'permission_denied' ? t('signIn.notAccepted') : localizeError(err, t, f).text);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w={460} component="main">
        <form onSubmit={submit} aria-labelledby="signin-title">
          <Stack>
            <Title order={1} size="h2" id="signin-title">
              {t('signIn.title')}
            </Title>
            <Text size="sm" c="dimmed">
              <Trans i18nKey="signIn.intro" components={{ code: <Code /> }} />
            </Text>
            {notice === 'rejected' && (
              <Alert color="yellow" title={t('signIn.signedOut')}>
                {t('signIn.rejectedNotice')}
              </Alert>
            )}
            <PasswordInput
              label={t('signIn.keyLabel')}
              value={token}
              onChange={(e) => setToken(e.currentTarget.value)}
              error={error}
              visibilityToggleButtonProps={{ 'aria-label': t('common.togglePassword') }}
              autoFocus
              autoComplete="off"
              data-autofocus
            />
            <Button type="submit" loading={busy}>
              {t('signIn.submit')}
            </Button>
            <Text size="xs" c="dimmed">
              <Trans i18nKey="signIn.lost" components={{ code: <Code /> }} />
            </Text>
            <Group justify="flex-end">
              <LanguageSelect size="xs" w={240} />
            </Group>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
