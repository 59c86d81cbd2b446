/**
 * Whom a person wrote to on a local day (SPEC §4 Recharge: "Non-paid user quota resets at the
 * end of the local day"), kept on the device per account so that a reload does not reset the
 * count. Only the day asked for is kept: saving another day's peers forgets the day before.
 */
export interface ChatQuotaPort {
  /** The peers `account` wrote to on `day` (a local 'YYYY-MM-DD'); none for a day not kept, or a record not readable. */
  load(account: string, day: string): readonly string[];
  save(account: string, day: string, peers: readonly string[]): void;
}
