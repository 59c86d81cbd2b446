/**
 * The native shell's open parameters (README "Shell contract"). The shell supplies the
 * SPEC §3 stored auth and device data either as a bridge object set before the page
 * loads (`window.AppShell.openParams`) or as URL query parameters. They are read once at
 * start, kept in storage for the next open, and removed from the address bar so the
 * token does not linger in history.
 */
import type { StoredAuth } from '../../machines/ports/session.port';
import { AUTH_FIELDS, parseAuth, readStoredAuth, writeStoredAuth } from './storage';

declare global {
  interface Window {
    AppShell?: { openParams?: unknown };
  }
}

export function readOpenParams(): StoredAuth | null {
  const fromBridge = parseAuth(window.AppShell?.openParams);
  const url = new URL(window.location.href);
  const fromQuery = parseAuth(Object.fromEntries(AUTH_FIELDS.map((f) => [f, url.searchParams.get(f)])));

  if (AUTH_FIELDS.some((f) => url.searchParams.has(f))) {
    for (const f of AUTH_FIELDS) url.searchParams.delete(f);
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }

  const supplied = fromBridge ?? fromQuery;
  if (supplied) {
    writeStoredAuth(supplied);
    return supplied;
  }
  return readStoredAuth();
}
