/**
 * Injected failures for development and e2e runs (DEVELOPMENT ONLY): the dev shell's
 * `POST /shell/api/faults` sets them (server/shell/routes.ts), the handlers consume them.
 * Nothing else can set a fault, so with `devShell: false` every count stays 0 and the server
 * behaves normally.
 *
 * - `baseConfigFailures`: the next N base-config requests (/api/index/v2 and v4
 *   getBaseConfigForIntoBag, counted together; of one signed-in user when set with a user id)
 *   fail with HTTP 500, so the client's
 *   retry-up-to-3-times path (SPEC §7 Other calls, §8 "Base config failure throws after 3
 *   retries") can be watched against a real server.
 */
export const MAX_INJECTED_FAILURES = 100;

export interface FaultState {
  baseConfigFailures: number;
}

/** The error a faulty handler throws: outside ApiError, so the transport answers HTTP 500. */
export class InjectedFault extends Error {
  constructor(what: string) {
    super(`Injected fault (dev shell): ${what}`);
    this.name = 'InjectedFault';
  }
}

export type Faults = ReturnType<typeof createFaults>;

export function createFaults() {
  /** The counts for anyone's requests, and those for one user's requests only (by user id). */
  const anyone: FaultState = { baseConfigFailures: 0 };
  const byUser = new Map<number, FaultState>();
  const of = (userId?: number): FaultState => {
    if (userId === undefined) return anyone;
    let state = byUser.get(userId);
    if (!state) byUser.set(userId, (state = { baseConfigFailures: 0 }));
    return state;
  };
  return {
    /** The counts pending for anyone, or for the user given. */
    state: (userId?: number): FaultState => ({ ...(userId === undefined ? anyone : byUser.get(userId) ?? { baseConfigFailures: 0 }) }),
    /**
     * Sets the given counts (each 0…MAX_INJECTED_FAILURES); absent ones stay. With a user id they
     * are taken only by that user's signed-in requests, so a test's faults never meet another's.
     */
    set(changes: Partial<FaultState>, userId?: number): FaultState {
      const state = of(userId);
      for (const [key, value] of Object.entries(changes) as [keyof FaultState, number | undefined][]) {
        if (value === undefined) continue;
        if (!Number.isInteger(value) || value < 0 || value > MAX_INJECTED_FAILURES) {
          throw new RangeError(`${key} must be an integer 0…${MAX_INJECTED_FAILURES}.`);
        }
        state[key] = value;
      }
      return { ...state };
    },
    /** Throws InjectedFault (and counts it) while base-config failures are pending for this user, else for anyone. */
    failBaseConfigIfPending(userId?: number): void {
      const own = userId === undefined ? undefined : byUser.get(userId);
      const state = own && own.baseConfigFailures > 0 ? own : anyone;
      if (state.baseConfigFailures === 0) return;
      state.baseConfigFailures -= 1;
      throw new InjectedFault('base config');
    },
  };
}
