import { Alert, Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DesktopClient } from '../../shared/desktop.js';
import { useQuery } from '../lib/use-query.js';

/** Desktop app only: indexing paused from the tray holds new files until resumed. */
export function PausedBanner({ desktop }: { desktop: DesktopClient }) {
  const { t } = useTranslation();
  const info = useQuery(() => desktop.appInfo({}), [desktop], { intervalMs: 3000 });
  if (!info.data?.indexing_paused) return null;
  return (
    <Alert color="yellow" title={t('paused.title')} role="status">
      {t('paused.text')}{' '}
      <Button
        size="xs"
        variant="light"
        ml="sm"
        onClick={() => {
          void desktop.setIndexingPaused({ paused: false }).then(info.reload);
        }}
      >
        {t('paused.resume')}
      </Button>
    </Alert>
  );
}
