/**
 * Money out, declared once for the app and the reference server (SPEC §2 /wallet with
 * addCollectionMethod, collectionInfo, withdrawal, withdrawalRecord; §6 host: withdrawal; §7
 * the host's wallet and withdrawal endpoints): the kinds of income, the kinds of collection
 * method and their rules, the withdrawal password's rules, a withdrawal's statuses, the
 * quote (fee and what arrives) and every text a person reads about them.
 *
 * A host's income is counted in diamonds (the `income` balance of the wallet). A withdrawal
 * takes a whole number of them out: the fee (a percentage, rounded up) stays, the rest is paid
 * at the config's rate (diamonds per US dollar), rounded down to the cent.
 */

/** Why a host's income changed (the income ledger's entries as the host reads them). */
export const INCOME_KINDS = ['call', 'gift', 'liveGift', 'privateMessage', 'taskReward', 'withdrawal', 'withdrawalReturned', 'other'] as const;
export type IncomeKind = (typeof INCOME_KINDS)[number];

/** Where a withdrawal is paid: a bank account, an e-wallet, a USDT address. */
export const ACCOUNT_KINDS = ['bank', 'ewallet', 'usdt'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** The chains a USDT address may be on (as money in, src/api/contract/wallet.ts USDT_CHAINS). */
export const WITHDRAW_CHAINS = ['TRC20', 'ERC20'] as const;
export type WithdrawChain = (typeof WITHDRAW_CHAINS)[number];

/** A withdrawal's life: applied (held), processing (the operator took it), then paid or refused (the amount returns). */
export const WITHDRAW_STATUSES = ['applied', 'processing', 'paid', 'refused'] as const;
export type WithdrawStatus = (typeof WITHDRAW_STATUSES)[number];
/** The statuses whose amount is still held (not paid, not returned). */
export const HELD_STATUSES: readonly WithdrawStatus[] = ['applied', 'processing'];

/** How many collection methods a host may keep. */
export const MAX_ACCOUNTS = 10;
/** Wrong withdrawal passwords in a row before withdrawals lock, and for how long. */
export const PASSWORD_ATTEMPTS = 5;
export const PASSWORD_LOCK_MS = 15 * 60_000;
/** Longest refusal reason an operator may give. */
export const MAX_REASON_LENGTH = 200;

/** ISO weekdays, 1 Monday … 7 Sunday (the config's allowed days, in UTC). */
export const WEEKDAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
/** The ISO weekday (1–7) of a moment, in UTC. */
export const utcWeekday = (ms: number): number => ((new Date(ms).getUTCDay() + 6) % 7) + 1;

/** The withdrawal rules a host sees before applying (getAnchorWithDrawConfig). */
export interface WithdrawRules {
  /** Fewest and most diamonds per withdrawal. */
  minimum: number;
  maximum: number;
  /** The fee, a percentage of the amount (0–100, may have decimals). */
  feePercent: number;
  /** Diamonds per US dollar. */
  rate: number;
  /** ISO weekdays (UTC) on which a withdrawal may be applied for. */
  allowedDays: readonly number[];
}

export const TEXT_HOSTS_ONLY = 'Only hosts have an income wallet.';
export const TEXT_WHOLE_AMOUNT = 'Enter a whole number of diamonds.';
export const textBelowMinimum = (minimum: number): string => `The least you can withdraw is ${minimum} diamonds.`;
export const textAboveMaximum = (maximum: number): string => `The most you can withdraw at once is ${maximum} diamonds.`;
export const textAboveBalance = (available: number): string => `You can withdraw at most ${available} diamonds now.`;
export const textDays = (days: readonly number[]): string =>
  days.length === 0 ? 'Withdrawals are closed for now.' : `Withdrawals can be applied for on ${days.map((d) => WEEKDAY_NAMES[d - 1]).join(', ')} (UTC).`;
export const TEXT_CHOOSE_ACCOUNT = 'Choose where the money goes.';
export const TEXT_ACCOUNT_NOT_FOUND = 'This collection method was not found. Choose another one.';
export const TEXT_TOO_MANY_ACCOUNTS = `You can keep at most ${MAX_ACCOUNTS} collection methods.`;
export const TEXT_ACCOUNT_EXISTS = 'This collection method is added already.';

export const TEXT_PASSWORD_FORMAT = 'The withdrawal password is 6 digits.';
export const TEXT_PASSWORD_MISMATCH = 'The two passwords do not match.';
export const TEXT_PASSWORD_NOT_SET = 'Set a withdrawal password first.';
export const TEXT_PASSWORD_SET_ALREADY = 'A withdrawal password is set already. Change it with the old one.';
export const TEXT_PASSWORD_SAME = 'The new password must differ from the old one.';
export const textWrongPassword = (left: number): string =>
  `Wrong withdrawal password. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`;
export const textPasswordLocked = (waitMs: number): string => {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many wrong passwords. Withdrawals are locked for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
};
export const TEXT_RECORD_NOT_FOUND = 'This withdrawal was not found.';
export const TEXT_RECORD_ENDED = 'This withdrawal has ended already.';

/** A withdrawal password: exactly 6 digits. */
export const isPasswordFormat = (password: string): boolean => /^\d{6}$/.test(password);

/** What a withdrawal of `amount` diamonds costs and pays: the fee (rounded up), the rest, and its dollars (rounded down to the cent). */
export function quoteOf(rules: Pick<WithdrawRules, 'feePercent' | 'rate'>, amount: number): { fee: number; net: number; usd: string } {
  const fee = Math.min(amount, Math.ceil((amount * rules.feePercent) / 100 - 1e-9));
  const net = amount - fee;
  const cents = rules.rate > 0 ? Math.floor((net * 100) / rules.rate + 1e-9) : 0;
  return { fee, net, usd: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` };
}

/** Why `amount` cannot be withdrawn now (null: it can), checked in this order. */
export function amountProblem(rules: WithdrawRules, amount: number, available: number, now: number): string | null {
  if (!Number.isSafeInteger(amount) || amount <= 0) return TEXT_WHOLE_AMOUNT;
  if (!rules.allowedDays.includes(utcWeekday(now))) return textDays(rules.allowedDays);
  if (amount < rules.minimum) return textBelowMinimum(rules.minimum);
  if (amount > rules.maximum) return textAboveMaximum(rules.maximum);
  if (amount > available) return textAboveBalance(available);
  return null;
}

/** A collection method as entered (addWithdrawAccount). Fields a kind does not use are ''. */
export interface AccountDraft {
  kind: AccountKind;
  /** The name the money is paid to (bank and e-wallet). */
  holderName: string;
  /** The bank's name (bank), the e-wallet's provider (ewallet). */
  institution: string;
  /** The account number or IBAN (bank), the e-wallet's email or phone (ewallet), the address (usdt). */
  accountNumber: string;
  /** The USDT chain (usdt). */
  chain: string;
}
export type AccountField = 'holderName' | 'institution' | 'accountNumber' | 'chain';
export type AccountProblems = Partial<Record<AccountField, string>>;

export const TEXT_HOLDER_NAME = 'Enter the account holder’s name (2 to 60 letters).';
export const TEXT_BANK_NAME = 'Enter the bank’s name (2 to 60 characters).';
export const TEXT_BANK_NUMBER = 'Enter the account number or IBAN: 6 to 34 letters and digits.';
export const TEXT_PROVIDER = 'Choose the e-wallet.';
export const TEXT_EWALLET_ACCOUNT = 'Enter the e-wallet’s email address or phone number (with its country code).';
export const TEXT_CHAIN = 'Choose the chain: TRC20 or ERC20.';
export const textAddress = (chain: WithdrawChain): string =>
  chain === 'TRC20' ? 'A TRC20 address starts with T and has 34 characters.' : 'An ERC20 address starts with 0x and has 40 hexadecimal digits after it.';

/** The draft as it is kept: trimmed, inner spaces of numbers gone, IBAN letters upper-case. */
export function normalisedDraft(d: AccountDraft): AccountDraft {
  const squeezed = d.accountNumber.replace(/[\s-]/g, '');
  return {
    kind: d.kind,
    holderName: d.kind === 'usdt' ? '' : d.holderName.trim().replace(/\s+/g, ' '),
    institution: d.kind === 'usdt' ? '' : d.institution.trim().replace(/\s+/g, ' '),
    // An e-wallet's email is kept as typed (trimmed); a phone number loses its spaces and dashes.
    accountNumber: d.kind === 'bank' ? squeezed.toUpperCase() : d.kind === 'ewallet' && d.accountNumber.includes('@') ? d.accountNumber.trim() : squeezed,
    chain: d.kind === 'usdt' ? d.chain : '',
  };
}

/** What is wrong with a draft, field by field (null: nothing); `providers` are the config's e-wallets. */
export function accountProblems(draft: AccountDraft, providers: readonly string[]): AccountProblems | null {
  const d = normalisedDraft(draft);
  const problems: AccountProblems = {};
  if (d.kind !== 'usdt' && !/^\p{L}[\p{L}\p{M} .'’-]{1,59}$/u.test(d.holderName)) problems.holderName = TEXT_HOLDER_NAME;
  if (d.kind === 'bank') {
    if (d.institution.length < 2 || d.institution.length > 60) problems.institution = TEXT_BANK_NAME;
    if (!/^[A-Z0-9]{6,34}$/.test(d.accountNumber)) problems.accountNumber = TEXT_BANK_NUMBER;
  } else if (d.kind === 'ewallet') {
    if (!providers.includes(d.institution)) problems.institution = TEXT_PROVIDER;
    const email = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/.test(d.accountNumber) && d.accountNumber.length <= 120;
    const phone = /^\+[1-9]\d{6,14}$/.test(d.accountNumber);
    if (!email && !phone) problems.accountNumber = TEXT_EWALLET_ACCOUNT;
  } else if (!(WITHDRAW_CHAINS as readonly string[]).includes(d.chain)) {
    problems.chain = TEXT_CHAIN;
  } else {
    const chain = d.chain as WithdrawChain;
    const ok = chain === 'TRC20' ? /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(d.accountNumber) : /^0x[0-9a-fA-F]{40}$/.test(d.accountNumber);
    if (!ok) problems.accountNumber = textAddress(chain);
  }
  return Object.keys(problems).length ? problems : null;
}

/** An account number as shown: only its last 4 characters (an email keeps its first letter and domain). */
export function maskAccount(kind: AccountKind, accountNumber: string): string {
  if (kind === 'ewallet' && accountNumber.includes('@')) {
    const [local, domain] = accountNumber.split('@') as [string, string];
    return `${local.slice(0, 1)}•••@${domain}`;
  }
  if (kind === 'usdt') return `${accountNumber.slice(0, 4)}•••${accountNumber.slice(-4)}`;
  return `•••• ${accountNumber.slice(-4)}`;
}
