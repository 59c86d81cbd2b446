/**
 * What the call's media adapters (rtc.local.ts, rtc.agora.ts) share so that a call starts
 * without waiting for what could be ready already: one preparation of the own camera and
 * microphone per call, and what a join needs (the rtcToken, a link) got ready beside it.
 *
 * The call machine prepares while the caller's call is created and while the callee's call
 * rings (its preview); the caller's join and the callee's accept then prepare again and find
 * it done, or under way.
 */

export interface OnePreparation {
  /** Opens the own media, or answers with the preparation under way or done for the same `video`. */
  prepare(video: boolean): Promise<void>;
  /** The call is left: the next prepare opens again. */
  forget(): void;
}

/**
 * One preparation per call: a failed one is tried again at the next prepare. `failed` hears the
 * failure of the call's current preparation (not of one the call left, `forget`, or that another
 * kind of call replaced), however its prepare was waited for.
 */
export function onePreparation(open: (video: boolean) => Promise<void>, failed?: (error: unknown) => void): OnePreparation {
  let current: { video: boolean; done: Promise<void> } | null = null;
  return {
    prepare(video) {
      if (current?.video === video) return current.done;
      const mine = { video, done: open(video) };
      current = mine;
      mine.done.catch((error: unknown) => {
        if (current !== mine) return;
        current = null;
        failed?.(error);
      });
      return mine.done;
    },
    forget() {
      current = null;
    },
  };
}

/** How long an rtcToken is reused for by default: 10 minutes (the server's tokens live a day). */
export const KEPT_TOKEN_MAX_AGE_MS = 10 * 60_000;

/** A token kept from one join to the next (`keptToken`). */
export interface KeptToken {
  /** Asks for one, unless a young one is kept. */
  ready(): void;
  /** The kept token for `account`'s join when it is young and not another account's; null otherwise. */
  take(account: string): Promise<string> | null;
  /** The kept token served `account`'s join: it is that account's from now on. */
  claim(account: string): void;
  /** Drops it (a join refused it). */
  forget(): void;
}

/**
 * A token kept from one join to the next while it is young (`maxAgeMs`, well inside the
 * server's lifetime for it): asked for at the first prepare, then reused, so that a ring does
 * not wait for a request. One that failed to come, is older, was refused at a join (`forget`)
 * or served another account (a sign-out and in since) is asked for again.
 */
export function keptToken(token: () => Promise<string>, maxAgeMs = KEPT_TOKEN_MAX_AGE_MS, now: () => number = Date.now): KeptToken {
  let kept: { at: number; token: Promise<string>; owner: string | null } | null = null;
  const young = () => kept !== null && now() - kept.at <= maxAgeMs;
  return {
    ready() {
      if (young()) return;
      const mine = { at: now(), token: token(), owner: null };
      kept = mine;
      mine.token.catch(() => {
        if (kept === mine) kept = null;
      });
    },
    take(account) {
      if (kept && kept.owner !== null && kept.owner !== account) kept = null;
      return young() ? kept!.token : null;
    },
    claim(account) {
      if (kept) kept.owner = account;
    },
    forget() {
      kept = null;
    },
  };
}

/**
 * Whether camera and microphone are both allowed already, as the Permissions API says (false
 * while unknown or where it cannot tell). Watched from the call on, so a change is seen.
 */
export function watchMediaAllowed(permissions: Permissions | undefined = globalThis.navigator?.permissions): () => boolean {
  const states = new Map<string, PermissionState>();
  if (typeof permissions?.query === 'function') {
    for (const name of ['camera', 'microphone']) {
      permissions.query({ name: name as PermissionName }).then((status) => {
        const update = () => states.set(name, status.state);
        update();
        status.addEventListener?.('change', update);
      }, () => undefined);
    }
  }
  return () => states.get('camera') === 'granted' && states.get('microphone') === 'granted';
}
