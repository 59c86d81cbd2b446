/**
 * The route facts the root actor decides with (SPEC §2 tab bars, §4 Login). Paths are
 * product words here: the machine asks for navigation by emitting them.
 */
export const PUBLIC_PATHS: readonly string[] = ['/login', '/register', '/landingPage'];
export const NORMAL_TAB_PATHS: readonly string[] = ['/', '/news', '/circle', '/mine'];
export const RESTRICTED_TAB_PATHS: readonly string[] = ['/newsRestricted', '/mineRestricted'];
export const LOGIN_PATH = '/login';
/**
 * What a visitor may open (SPEC §6: login and register only, and browsing what the server lets a
 * visitor read): their news (system and station messages), Mine, and people's profiles. Anywhere
 * else a visitor is taken home.
 */
export const VISITOR_PATHS: readonly string[] = ['/newsRestricted', '/mineRestricted', '/userProfile'];
/**
 * What only a host may open (SPEC §6 Host: live): setting up a live and its results. A
 * non-host who reaches one by its address lands on their news, as on the host's tab roots.
 */
export const HOST_ONLY_PATHS: readonly string[] = ['/liveSetting', '/liveEnds'];

export type AppMode = 'host' | 'restricted';

export const homeFor = (mode: AppMode): string => (mode === 'host' ? '/' : '/newsRestricted');

/** The path without its query and fragment. */
export const pathnameOf = (path: string): string => path.split(/[?#]/, 1)[0] ?? path;

export const isPublicPath = (path: string): boolean => PUBLIC_PATHS.includes(pathnameOf(path));

export const isVisitorPath = (path: string): boolean => VISITOR_PATHS.includes(pathnameOf(path));

/**
 * Where a path sends a person of `mode`: the other mode's tab roots map onto this mode's
 * (a non-host on `/news` goes to `/newsRestricted`), a host-only screen takes a non-host to
 * their news, everything else stays.
 */
export function pathForMode(mode: AppMode, path: string): string {
  const pathname = pathnameOf(path);
  if (mode === 'restricted' && HOST_ONLY_PATHS.includes(pathname)) return homeFor(mode);
  if (mode === 'restricted' && NORMAL_TAB_PATHS.includes(pathname)) {
    return pathname === '/mine' ? '/mineRestricted' : '/newsRestricted';
  }
  if (mode === 'host' && RESTRICTED_TAB_PATHS.includes(pathname)) {
    return pathname === '/mineRestricted' ? '/mine' : '/news';
  }
  return path;
}

/**
 * A path worth staying on once the session settles (a reload, a deep link from the shell):
 * anything but the public pages and `/`, which is where the shell opens the app, and from
 * where a host goes to / and a non-host to /newsRestricted (SPEC §4 Login).
 */
export const isDeepLink = (path: string): boolean => !isPublicPath(path) && pathnameOf(path) !== '/';
