/**
 * The non-paid user quota of the chats (SPEC §3 Base config businessConfig.nonPaidUserCount,
 * §4 Recharge "Non-paid user quota resets at the end of the local day"), as this app reads it:
 * a person who never paid (no paid recharge order) may write to at most `nonPaidUserCount`
 * different people per local calendar day. Writing again to someone already written to that day
 * is always allowed; the customer-service account is never counted or limited; hosts are never
 * limited; a person who paid (a recharge, or VIP, which is bought) is never limited; a count of 0 (or business features off) is no
 * limit. The day is the device's: it turns at local midnight.
 *
 * The talk (talk.machine.ts) keeps these facts in its context and refuses, by its `withinQuota`
 * guard, a text to one person too many; the screen shows TEXT_CHAT_LIMIT with Recharge then.
 * The server does not enforce it: it cannot know the person's local day, and it is a nudge
 * towards recharging, not a charge.
 */
import type { AppSettings } from '../base-config/base-config.machine';

export const TEXT_CHAT_LIMIT = "You have reached today's limit of free chats. Recharge to chat with more people.";

/** What the talk of the talk screen gets from its owner: the day's limit and whether the person is a host. */
export interface QuotaInput {
  /** nonPaidUserCount; 0: no limit. */
  limit: number;
  isHost: boolean;
}

/** The facts the rule reads, as the talk keeps them. */
export interface ChatQuota extends QuotaInput {
  /** The customer-service account, once looked up. */
  customerService: string | null;
  /** Whether the person ever paid (a recharge, or VIP); null until the wallet said. */
  paid: boolean | null;
  /** The local day `peers` are of ('YYYY-MM-DD'), null until the clock was read. */
  day: string | null;
  /** Whom the person wrote to that day, in order. */
  peers: readonly string[];
}

export const quotaOf = (input: QuotaInput): ChatQuota => ({ ...input, customerService: null, paid: null, day: null, peers: [] });

/** The day's limit the app settings give (0: none); none before they are loaded or when business features are off. */
export const chatLimitOf = (settings: Pick<AppSettings, 'businessEnabled' | 'nonPaidUserCount'> | null | undefined): number => {
  const count = settings?.businessEnabled ? settings.nonPaidUserCount : 0;
  return Number.isSafeInteger(count) && count > 0 ? count : 0;
};

const two = (n: number) => String(n).padStart(2, '0');

/** The local calendar day of a clock time, 'YYYY-MM-DD'. */
export function localDayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The clock time of the next local midnight after `ms` (the end of its local day). */
export function nextLocalMidnight(ms: number): number {
  const d = new Date(ms);
  d.setHours(24, 0, 0, 0);
  return d.getTime();
}

/** Whether the quota applies to writing to `peer` at all (it may count the peer). */
export function quotaApplies(quota: ChatQuota | null, peer: string): quota is ChatQuota {
  return quota !== null && quota.limit > 0 && !quota.isHost && quota.paid !== true && peer !== quota.customerService;
}

/** A text to `peer` would be to one person too many today: refused. Only once the wallet said the person never paid. */
export function quotaReached(quota: ChatQuota | null, peer: string): boolean {
  return quotaApplies(quota, peer) && quota.paid === false && quota.day !== null
    && !quota.peers.includes(peer) && quota.peers.length >= quota.limit;
}

/** A text to `peer` is someone new today: the peer is added to the day's record. */
export function quotaCounts(quota: ChatQuota | null, peer: string): quota is ChatQuota {
  return quotaApplies(quota, peer) && quota.day !== null && !quota.peers.includes(peer);
}
