/**
 * The first screen's code is fetched while the profile loads, not after it: which screen comes
 * first depends on whether the person is a host (SPEC §4 Login: a host goes to /, a non-host to
 * /newsRestricted), which the profile says. The mode of the last session is kept, so a start
 * fetches that mode's screen; the very first start fetches its screen once the profile tells
 * the mode: the page's entry asked for the profile (src/app/askEarly.ts), so it comes about
 * when that code would have, and the other mode's screen is neither fetched nor run (which
 * took some 20 ms of the start, 80 ms at 4× slowdown). A start without a session
 * fetches the login screen's code as soon as the start has asked for nothing else. A host's
 * home also has its first answers asked for by the start (`asksHomeEarly`).
 */
import type { AppMode } from '../../machines/app/app.paths';
import { LOGIN_PATH, homeFor, isDeepLink, isPublicPath, pathForMode, pathnameOf } from '../../machines/app/app.paths';
import { screens } from './screens';

/** The screen a start on `path` shows first to a person of `mode`. */
export function firstScreenFor(mode: AppMode, path: string): string {
  return pathnameOf(isDeepLink(path) ? pathForMode(mode, path) : homeFor(mode));
}

/**
 * Starts fetching the code of the first screen a start on `path` will show: signed in, the
 * screen of `mode` (none while it is not known: the caller asks again with the profile's);
 * signed out, the login screen (or the public page asked for). Returns the paths fetched.
 */
export function preloadFirstScreen(path: string, signedIn: boolean, mode: AppMode | null): string[] {
  const paths = signedIn
    ? (mode ? [firstScreenFor(mode, path)] : [])
    : [isPublicPath(path) ? pathnameOf(path) : LOGIN_PATH];
  for (const target of paths) {
    // A failed fetch is the route's to report when it is shown (it loads the module again).
    screens.find((s) => s.path === target)?.load().catch(() => undefined);
  }
  return paths;
}

/**
 * Whether the start asks for the home's first answers (src/app/early.ts) itself: signed in, on
 * a path that shows a host the home first, unless the last session was not a host's.
 */
export function asksHomeEarly(path: string, signedIn: boolean, lastMode: AppMode | null): boolean {
  return signedIn && lastMode !== 'restricted' && firstScreenFor('host', path) === homeFor('host');
}

/** Fetches a picture ahead of the element that shows it (the browser's image cache serves it then). */
export function fetchPicture(url: string): void {
  const picture = new Image();
  picture.fetchPriority = 'high';
  picture.decoding = 'async';
  picture.src = url;
}
