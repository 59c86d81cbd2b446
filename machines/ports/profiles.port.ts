/**
 * People as the chats show them (SPEC §7 batchQueryYxStat, getCustomerServiceList): the
 * conversations, the banner and a talk's extras look peers up through this port.
 */

/** A chat peer's profile and online status. */
export interface ChatProfile {
  nickname: string;
  icon: string;
  onlineStatus: number;
  userId?: number;
  isVip?: boolean;
  /** Whether the signed-in person blocked this peer. */
  blocked?: boolean;
  /** SPEC §3 userType (2 = host). */
  userType?: number;
  /** A host live now (a live room on air). */
  living?: boolean;
}

export interface ProfilesPort {
  /** Profiles and online status of at most 100 accounts; missing ones are left out. */
  lookup(accounts: readonly string[]): Promise<Record<string, ChatProfile>>;
  /** The customer-service IM account, or null when there is none. */
  customerService(): Promise<string | null>;
}
