/**
 * In-memory profiles. In auto mode `lookup` answers from the profiles the test seeded (keyed by
 * IM account), leaves out the accounts it has none for and refuses more than
 * PROFILES_LOOKUP_MAX at once, as the server does; `customerService` answers the seeded
 * account. `isBlocked` lets another fake say whom the signed-in person blocked
 * (FakeChatServer), so a Block there shows here. In manual mode every call waits for the test
 * (`pending.next('lookupProfiles')`, `pending.next('customerServiceAccount')`), under the names
 * the session's tests settle; a shared `pending` may be passed in.
 */
import { PendingCalls } from './pending';
import type { ChatProfile, ProfilesPort } from './profiles.port';

/** SPEC §9: lookups in groups of 100. */
export const PROFILES_LOOKUP_MAX = 100;
export const TEXT_FAKE_TOO_MANY_ACCOUNTS = `At most ${PROFILES_LOOKUP_MAX} accounts at a time.`;

export interface FakeProfilesOptions {
  /** IM account → profile. */
  profiles?: Readonly<Record<string, ChatProfile>>;
  /** The customer-service IM account (default none). */
  customerService?: string | null;
  /** Whom the signed-in person blocked, when another fake keeps it; overrides the profiles' `blocked`. */
  isBlocked?: (account: string) => boolean;
}

export class FakeProfilesPort implements ProfilesPort {
  /** The profiles the service knows; a test may change them between calls. */
  readonly people: Map<string, ChatProfile>;
  customerServiceAccount: string | null;
  /** Every lookup asked for, in order. */
  readonly lookups: (readonly string[])[] = [];

  constructor(
    readonly mode: 'auto' | 'manual' = 'auto',
    private readonly options: FakeProfilesOptions = {},
    readonly pending: PendingCalls = new PendingCalls(),
  ) {
    this.people = new Map(Object.entries(options.profiles ?? {}));
    this.customerServiceAccount = options.customerService ?? null;
  }

  async lookup(accounts: readonly string[]): Promise<Record<string, ChatProfile>> {
    this.lookups.push([...accounts]);
    if (this.mode === 'manual') return this.pending.add('lookupProfiles', [accounts]);
    if (accounts.length > PROFILES_LOOKUP_MAX) throw new Error(TEXT_FAKE_TOO_MANY_ACCOUNTS);
    const out: Record<string, ChatProfile> = {};
    for (const account of accounts) {
      const profile = this.people.get(account);
      if (!profile) continue;
      out[account] = this.options.isBlocked ? { ...profile, blocked: this.options.isBlocked(account) } : { ...profile };
    }
    return out;
  }

  async customerService(): Promise<string | null> {
    if (this.mode === 'manual') return this.pending.add('customerServiceAccount', []);
    return this.customerServiceAccount;
  }
}
