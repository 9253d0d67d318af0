import { createContext, useContext } from 'react';
import type { RagClient } from '../../shared/contract/index.js';
import type { DesktopClient } from '../../shared/desktop.js';

export interface ApiContextValue {
  client: RagClient;
  /** Present inside the desktop app only. */
  desktop: DesktopClient | undefined;
  /** `desktop` inside Electron, `web` in a browser. */
  transport: 'desktop' | 'web';
  /** The bearer token the web console signed in with (null in the desktop app). */
  token: string | null;
  signOut: () => void;
}

export const ApiContext = createContext<ApiContextValue | null>(null);

export function useApi(): ApiContextValue {
  const value = useContext(ApiContext);
  if (!value) throw new Error('useApi outside ApiContext');
  return value;
}

/** The API context, or null outside it (the web console's sign-in page). */
export function useOptionalApi(): ApiContextValue | null {
  return useContext(ApiContext);
}

export function useClient() {
  return useApi().client;
}
