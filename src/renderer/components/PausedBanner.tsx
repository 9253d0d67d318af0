import { Alert, Button } from '@mantine/core';
import type { DesktopClient } from '../../shared/desktop.js';
import { useQuery } from '../lib/use-query.js';

/** Desktop app only: indexing paused from the tray holds new files until resumed. */
export function PausedBanner({ desktop }: { desktop: DesktopClient }) {
  const info = useQuery(() => desktop.appInfo({}), [desktop], { intervalMs: 3000 });
  if (!info.data?.indexing_paused) return null;
  return (
    <Alert color="yellow" title="Indexing is paused" role="status">
      Files you add wait until indexing resumes (tray menu → Resume indexing).{' '}
      <Button
        size="xs"
        variant="light"
        ml="sm"
        onClick={() => {
          void desktop.setIndexingPaused({ paused: false }).then(info.reload);
        }}
      >
        Resume now
      </Button>
    </Alert>
  );
}
