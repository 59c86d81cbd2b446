/**
 * Limits on the doors that need no session: sign-in, sign-up and visitor entry.
 *
 * - Failed sign-ins count per account (from any address) and per address (for any account).
 *   When either reaches its number within its window, it is locked for its lock time. The lock
 *   is checked before any password work, so a locked flood costs no scrypt and real sign-ins
 *   stay fast. Sign-ins still being checked count as failures until they end, so a burst of
 *   parallel guesses cannot slip past the number before the first of them has failed. Only
 *   failures count once the check is over: a person who signs in correctly locks nobody out, and
 *   failures before a success still count for their window (resetting them would give a
 *   guesser who knows one password a fresh allowance on another account).
 * - Password checks from one address run a few at a time (`addressChecks`); the others wait
 *   their turn, and past a queue of them are refused for a moment. So a flood from one address
 *   never holds more than that many of the libuv pool's scrypt threads. Checks of an address
 *   or an account that failed within its window besides take a turn in one lane shared by all
 *   such (`suspectChecks`): however many addresses a flood comes from, its checks hold at most
 *   that many threads, and a sign-in with no failure behind it keeps the rest.
 * - Sign-ups and visitor entries count every attempt per address; the attempt that reaches
 *   the number locks the address for its lock time.
 * - A refusal is answered only after `refusalDelayMs`. A refusal costs the server little, but a
 *   flood that is refused at once simply comes back at once: 32 guessers answered in a fraction
 *   of a millisecond each kept the server busy with ~1,900 refusals a second, and a real sign-in
 *   waited behind them (p99 134 ms). Held for a second, the same guessers send 32 a second. A
 *   person who is refused reads the same sentence a second later.
 *
 * The counters are in memory (rate-limiter-flexible's memory limiter): they are per process
 * and start empty on a restart, which is enough for the reference server; a deployment with
 * several processes would keep them in a shared store. The client address is Fastify's
 * `request.ip` (the socket's peer unless the server trusts a proxy, see `trustProxy`).
 */
import { RateLimiterMemory } from 'rate-limiter-flexible';

export interface Limit {
  /** How many (failures, or attempts) the window allows. */
  points: number;
  windowMs: number;
  /** How long a key stays locked once it reached `points`. */
  lockMs: number;
}

export interface DoorLimitOptions {
  /** Failed sign-ins of one account from anywhere: 10 in 15 min lock it for 15 min. */
  accountFailures?: Limit;
  /** Failed sign-ins from one address: 30 in 15 min lock it for 15 min. */
  addressFailures?: Limit;
  /** Sign-up attempts from one address: 30 an hour. */
  addressSignUps?: Limit;
  /** Visitor entries from one address: 30 an hour. */
  addressVisitors?: Limit;
  /** Password checks from one address at once (2; the pool has 4 threads), and how many may wait their turn (64). */
  addressChecks?: { atOnce: number; waiting: number };
  /** Password checks at once, of all addresses or accounts that failed within their window (2), and how many may wait (256). */
  suspectChecks?: { atOnce: number; waiting: number };
  /** How long a refusal for too many attempts is held before it is answered (1 s; see the file comment). */
  refusalDelayMs?: number;
}

const MINUTE = 60_000;

export const DEFAULT_DOOR_LIMITS: Required<DoorLimitOptions> = {
  accountFailures: { points: 10, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  addressFailures: { points: 30, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  addressSignUps: { points: 30, windowMs: 60 * MINUTE, lockMs: 60 * MINUTE },
  addressVisitors: { points: 30, windowMs: 60 * MINUTE, lockMs: 60 * MINUTE },
  addressChecks: { atOnce: 2, waiting: 64 },
  suspectChecks: { atOnce: 2, waiting: 256 },
  refusalDelayMs: 1000,
};

export type DoorLimits = ReturnType<typeof createDoorLimits>;

/** The wait said to a sign-in refused only because others of the key are still being checked: a moment. */
const IN_FLIGHT_WAIT_MS = 1000;

/** A counter of one kind: how long a key must wait (0: free), counting one more, and attempts in flight. */
function counter({ points, windowMs, lockMs }: Limit) {
  if (![points, windowMs, lockMs].every((n) => Number.isSafeInteger(n) && n > 0)) {
    throw new RangeError('A limit needs positive whole points, window and lock time.');
  }
  const limiter = new RateLimiterMemory({ points, duration: windowMs / 1000 });
  const inFlight = new Map<string, number>();
  const ended = (key: string) => {
    const n = (inFlight.get(key) ?? 1) - 1;
    if (n > 0) inFlight.set(key, n);
    else inFlight.delete(key);
  };
  return {
    /** Whether the key counted any within its window. */
    async counted(key: string): Promise<boolean> {
      return ((await limiter.get(key))?.consumedPoints ?? 0) > 0;
    },
    /** The wait of a key that reached `points` (counted ones, and attempts in flight besides `self`). */
    async waitMs(key: string, self = 0): Promise<number> {
      const state = await limiter.get(key);
      const counted = state?.consumedPoints ?? 0;
      if (state && counted >= points) return Math.max(1, state.msBeforeNext);
      return counted + (inFlight.get(key) ?? 0) - self >= points ? IN_FLIGHT_WAIT_MS : 0;
    },
    /** An attempt starts: it counts against the key until `ended`. */
    started(key: string): void {
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
    },
    ended,
    /** Counts one; the key that reaches `points` is locked for `lockMs` from now. */
    async count(key: string): Promise<void> {
      const state = await limiter.penalty(key, 1);
      if (state.consumedPoints === points) await limiter.block(key, lockMs / 1000);
    },
  };
}

/** At most `atOnce` turns per key; the next `waiting` wait for one, in order; more get none. */
function turns({ atOnce, waiting }: { atOnce: number; waiting: number }) {
  if (![atOnce, waiting].every((n) => Number.isSafeInteger(n) && n >= 0) || atOnce < 1) {
    throw new RangeError('Password checks need at least one at a time and a whole number that may wait.');
  }
  const keys = new Map<string, { active: number; queue: (() => void)[] }>();
  return {
    /** Resolves with the turn's release once it is this caller's turn; null when too many wait already. */
    async take(key: string): Promise<(() => void) | null> {
      let k = keys.get(key);
      if (!k) keys.set(key, (k = { active: 0, queue: [] }));
      const state = k;
      if (state.active < atOnce) state.active += 1;
      else if (state.queue.length >= waiting) return null;
      // A release hands its turn straight to the first in the queue, so `active` stays as it is.
      else await new Promise<void>((resolve) => state.queue.push(resolve));
      return () => {
        const next = state.queue.shift();
        if (next) return next();
        state.active -= 1;
        if (state.active === 0) keys.delete(key);
      };
    },
  };
}

export function createDoorLimits(options: DoorLimitOptions = {}) {
  const limits = { ...DEFAULT_DOOR_LIMITS, ...options };
  const checks = turns(limits.addressChecks);
  const suspects = turns(limits.suspectChecks);
  const account = counter(limits.accountFailures);
  const address = counter(limits.addressFailures);
  const signUps = counter(limits.addressSignUps);
  const visitors = counter(limits.addressVisitors);
  // Accounts match case-insensitively (users.account COLLATE NOCASE), so their counters do too.
  const accountKey = (name: string) => name.trim().toLowerCase();

  /** Counts an attempt of a kind counted per attempt; the wait when it is over the number (then it is not counted). */
  async function attempt(kind: ReturnType<typeof counter>, key: string): Promise<number> {
    const wait = await kind.waitMs(key);
    if (wait === 0) await kind.count(key);
    return wait;
  }

  return {
    refusalDelayMs: limits.refusalDelayMs,
    /**
     * Starts a sign-in of the account from the address, before any password work: the wait when
     * either is locked (nothing is counted then), else `end`, to call once the password is checked.
     */
    async startSignIn(name: string, from: string): Promise<{ waitMs: number } | { end(succeeded: boolean): Promise<void> }> {
      const turn = await checks.take(from);
      if (!turn) return { waitMs: IN_FLIGHT_WAIT_MS };
      const key = accountKey(name);
      // Counted in flight before the next await, so parallel attempts see each other.
      account.started(key);
      address.started(from);
      const release = () => {
        account.ended(key);
        address.ended(from);
        turn();
      };
      let waitMs: number;
      try {
        waitMs = Math.max(await account.waitMs(key, 1), await address.waitMs(from, 1));
      } catch (err) {
        release();
        throw err;
      }
      if (waitMs > 0) {
        release();
        return { waitMs };
      }
      const suspect = (await account.counted(key)) || (await address.counted(from));
      const lane = suspect ? await suspects.take('') : () => undefined;
      if (!lane) {
        release();
        return { waitMs: IN_FLIGHT_WAIT_MS };
      }
      return {
        async end(succeeded) {
          try {
            // Counted before the turn passes on, so the next check sees this failure.
            if (!succeeded) await Promise.all([account.count(key), address.count(from)]);
          } finally {
            lane();
            release();
          }
        },
      };
    },
    /** Counts a sign-up attempt from the address; the wait when it is over its limit (0: go ahead). */
    signUpWaitMs: (from: string): Promise<number> => attempt(signUps, from),
    /** Counts a visitor entry from the address; the wait when it is over its limit (0: go ahead). */
    visitWaitMs: (from: string): Promise<number> => attempt(visitors, from),
  };
}
