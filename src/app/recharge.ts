/**
 * Where "Recharge" leads (SPEC §2 /wallet, §1 recharge): the one place that says it, so that the
 * recharge screen, once it exists, is one line away. Until then the wallet.
 */
export const RECHARGE_PATH = '/wallet' as const;
