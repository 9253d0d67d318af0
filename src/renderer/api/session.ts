/** The web console's bearer token lives in sessionStorage: gone when the tab closes, never in localStorage. */
const KEY = 'ragdesk.token';

export function loadToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function saveToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(KEY, token);
    else sessionStorage.removeItem(KEY);
  } catch {
    // storage disabled: the token lives for this page only
  }
}
