/**
 * The route facts the root actor decides with (SPEC §2 tab bars, §4 Login). Paths are
 * product words here: the machine asks for navigation by emitting them.
 */
export const PUBLIC_PATHS: readonly string[] = ['/login', '/register', '/landingPage'];
export const NORMAL_TAB_PATHS: readonly string[] = ['/', '/news', '/circle', '/mine'];
export const RESTRICTED_TAB_PATHS: readonly string[] = ['/newsRestricted', '/mineRestricted'];
export const LOGIN_PATH = '/login';

export type AppMode = 'host' | 'restricted';

export const homeFor = (mode: AppMode): string => (mode === 'host' ? '/' : '/newsRestricted');

export const isPublicPath = (path: string): boolean => PUBLIC_PATHS.includes(path);

/**
 * Where a path sends a person of `mode`: the other mode's tab roots map onto this mode's
 * (a non-host on `/news` goes to `/newsRestricted`), everything else stays.
 */
export function pathForMode(mode: AppMode, path: string): string {
  if (mode === 'restricted' && NORMAL_TAB_PATHS.includes(path)) {
    return path === '/mine' ? '/mineRestricted' : '/newsRestricted';
  }
  if (mode === 'host' && RESTRICTED_TAB_PATHS.includes(path)) {
    return path === '/mineRestricted' ? '/mine' : '/news';
  }
  return path;
}

/** A deep link worth returning to after the session settles: not public, not a tab root. */
export const isDeepLink = (path: string): boolean =>
  !isPublicPath(path) && !NORMAL_TAB_PATHS.includes(path) && !RESTRICTED_TAB_PATHS.includes(path);
