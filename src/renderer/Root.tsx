import { MantineProvider, createTheme } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AppSettings } from '../shared/desktop.js';
import { ApiContext, type ApiContextValue } from './api/context.js';
import { createHttpClient } from './api/http-client.js';
import { createDesktopClient, createIpcClient, desktopBridge } from './api/ipc-client.js';
import { loadToken, saveToken } from './api/session.js';
import { App } from './App.js';
import { LanguageProvider } from './i18n/language.js';
import { SignIn } from './screens/SignIn.js';

const theme = createTheme({ primaryColor: 'indigo', defaultRadius: 'md' });

/** A token handed over in the URL (`#token=…`, as printed by `ragdesk serve`) is kept and removed from the address bar. */
function takeTokenFromUrl(): string | null {
  const match = /(?:^#|[?&#])token=([^&]+)/.exec(window.location.hash);
  if (!match?.[1]) return null;
  const token = decodeURIComponent(match[1]);
  history.replaceState(null, '', `${window.location.pathname}${window.location.search}#/`);
  return token;
}

/** Picks the transport (IPC inside Electron, HTTP in a browser), handles sign-in and the colour scheme. */
export function Root() {
  const bridge = useMemo(() => desktopBridge(), []);
  const [token, setToken] = useState<string | null>(() => (bridge ? null : (takeTokenFromUrl() ?? loadToken())));
  /** Why the web console signed out by itself (shown on the sign-in page). */
  const [notice, setNotice] = useState<'rejected' | null>(null);
  const [forced, setForced] = useState<'light' | 'dark' | undefined>();

  const signOut = useCallback((reason?: 'rejected') => {
    saveToken(null);
    setToken(null);
    setNotice(reason ?? null);
  }, []);

  useEffect(() => {
    if (token) saveToken(token);
  }, [token]);

  const value: ApiContextValue | null = useMemo(() => {
    if (bridge) {
      return {
        client: createIpcClient(bridge),
        desktop: createDesktopClient(bridge),
        transport: 'desktop',
        token: null,
        signOut: () => undefined,
      };
    }
    if (!token) return null;
    const client = createHttpClient({
      getToken: () => token,
      onUnauthorized: () => signOut('rejected'),
    });
    return { client, desktop: undefined, transport: 'web', token, signOut: () => signOut() };
  }, [bridge, token, signOut]);

  // Inside the desktop app the theme setting may force light or dark; otherwise follow the OS.
  useEffect(() => {
    if (!value?.desktop) return;
    value.desktop
      .getSettings({})
      .then((s: AppSettings) => setForced(s.theme === 'system' ? undefined : s.theme))
      .catch(() => undefined);
  }, [value]);

  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" {...(forced ? { forceColorScheme: forced } : {})}>
      <LanguageProvider desktop={value?.desktop}>
        {value ? (
          <ApiContext.Provider value={value}>
            <App onThemeChange={(t) => setForced(t === 'system' ? undefined : t)} />
          </ApiContext.Provider>
        ) : (
          <SignIn
            notice={notice}
            onSignedIn={(t) => {
              setNotice(null);
              setToken(t);
            }}
          />
        )}
      </LanguageProvider>
    </MantineProvider>
  );
}
