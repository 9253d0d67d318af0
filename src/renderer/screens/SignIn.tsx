import { Alert, Button, Center, Code, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError } from '../api/errors.js';
import { verifyToken } from '../api/http-client.js';

/** The web console's sign-in: an API key, or the owner token that `ragdesk serve` prints. */
export function SignIn({ notice, onSignedIn }: { notice: string | null; onSignedIn: (token: string) => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const t = token.trim();
    if (!t) {
      setError('Paste an API key or the token printed by `ragdesk serve`.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await verifyToken(undefined, t);
      onSignedIn(t);
    } catch (err) {
      const { code, message } = describeError(err);
      setError(
        code === 'permission_denied'
          ? 'That key was not accepted. Check it, or create a new one in the desktop app or with `ragdesk keys create`.'
          : `${code}: ${message}`,
      );
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
              Sign in to ragdesk
            </Title>
            <Text size="sm" c="dimmed">
              Use an API key, or the owner token that <Code>ragdesk serve</Code> printed when it started. The key stays in this tab only.
            </Text>
            {notice && (
              <Alert color="yellow" title="Signed out">
                {notice}
              </Alert>
            )}
            <PasswordInput
              label="API key or token"
              value={token}
              onChange={(e) => setToken(e.currentTarget.value)}
              error={error}
              autoFocus
              autoComplete="off"
              data-autofocus
            />
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
            <Text size="xs" c="dimmed">
              Lost the token? Create a key with <Code>ragdesk keys create NAME</Code>, or restart <Code>ragdesk serve</Code> to see the
              owner token.
            </Text>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
