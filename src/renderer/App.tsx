import { AppShell, Badge, Burger, Button, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from './api/context.js';
import { IconActivity, IconDatabase, IconPlug, IconSearch, IconSettings } from './components/icons.js';
import { routeHref, useRoute, type Route } from './lib/router.js';
import { ActivityScreen } from './screens/Activity.js';
import { ConnectScreen } from './screens/Connect.js';
import { KbListScreen } from './screens/KbList.js';
import { KbScreen } from './screens/KbPage.js';
import { SearchScreen } from './screens/Search.js';
import { SettingsScreen } from './screens/Settings.js';

const NAV: Array<{
  route: Route['name'];
  key: 'nav.kbs' | 'nav.search' | 'nav.activity' | 'nav.connect' | 'nav.settings';
  icon: ReactNode;
}> = [
  { route: 'kbs', key: 'nav.kbs', icon: <IconDatabase /> },
  { route: 'search', key: 'nav.search', icon: <IconSearch /> },
  { route: 'activity', key: 'nav.activity', icon: <IconActivity /> },
  { route: 'connect', key: 'nav.connect', icon: <IconPlug /> },
  { route: 'settings', key: 'nav.settings', icon: <IconSettings /> },
];

function Screen({ route, onThemeChange }: { route: Route; onThemeChange: (t: 'system' | 'light' | 'dark') => void }) {
  switch (route.name) {
    case 'kbs':
      return <KbListScreen />;
    case 'kb':
      return <KbScreen kbId={route.kbId} docId={route.docId} chunk={route.chunk} />;
    case 'search':
      return <SearchScreen />;
    case 'activity':
      return <ActivityScreen />;
    case 'connect':
      return <ConnectScreen />;
    case 'settings':
      return <SettingsScreen onThemeChange={onThemeChange} />;
  }
}

export function App({ onThemeChange }: { onThemeChange: (t: 'system' | 'light' | 'dark') => void }) {
  const { t } = useTranslation();
  const route = useRoute();
  const { transport, signOut } = useApi();
  const [opened, { toggle, close }] = useDisclosure();
  const active = route.name === 'kb' ? 'kbs' : route.name;
  const screenKey = route.name === 'kb' ? `kb/${route.kbId}` : route.name;
  // A new screen starts at the top (opening a document drawer keeps the page where it is).
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [screenKey]);

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <a
        href="#main"
        className="skip-link"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('app.skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group gap="sm">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('app.toggleNav')} />
            <Title order={1} size="h4">
              ragdesk
            </Title>
            <Badge variant="light" color={transport === 'desktop' ? 'teal' : 'blue'}>
              {transport === 'desktop' ? t('app.transportDesktop') : t('app.transportWeb')}
            </Badge>
          </Group>
          {transport === 'web' && (
            <Button variant="subtle" size="xs" onClick={signOut}>
              {t('app.signOut')}
            </Button>
          )}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t('app.mainNav')}>
        {NAV.map((item) => (
          <NavLink
            key={item.route}
            href={routeHref({ name: item.route } as Route)}
            label={t(item.key)}
            leftSection={item.icon}
            active={active === item.route}
            aria-current={active === item.route ? 'page' : undefined}
            onClick={close}
          />
        ))}
        <Text size="xs" c="dimmed" mt="auto" p="xs">
          {t('app.tagline')}
        </Text>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Screen route={route} onThemeChange={onThemeChange} />
      </AppShell.Main>
    </AppShell>
  );
}
