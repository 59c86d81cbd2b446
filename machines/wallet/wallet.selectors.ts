/** Snapshot → what the money screens show: the wallet of the session, its recharge and its USDT countdown. */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { PaymentCountdownMachine } from '../payment-countdown/payment-countdown.machine';
import { suspendNumOf } from '../payment-countdown/suspend-num';
import type { RechargeMachine } from '../recharge/recharge.machine';
import type { SessionSnapshot } from '../session/session.selectors';
import type { WalletMachine } from './wallet.machine';

export type WalletRef = ActorRefFrom<WalletMachine>;
export type WalletSnapshot = SnapshotFrom<WalletMachine>;
export type RechargeRef = ActorRefFrom<RechargeMachine>;
export type RechargeSnapshot = SnapshotFrom<RechargeMachine>;
export type CountdownRef = ActorRefFrom<PaymentCountdownMachine>;
export type CountdownSnapshot = SnapshotFrom<PaymentCountdownMachine>;

/** The wallet (always there while signed in). */
export const selectWallet = (session: SessionSnapshot | undefined): WalletRef | undefined => session?.children.wallet;

/** The recharge, while its screen is open and its code is there. */
export const selectRecharge = (wallet: WalletSnapshot | undefined): RechargeRef | undefined => wallet?.children.recharge;

/** The USDT countdown, while an order is followed. */
export const selectCountdown = (wallet: WalletSnapshot | undefined): CountdownRef | undefined => wallet?.children.paymentCountdown;

/** Where the summary is: not asked yet, loading (the first time), there, or failed with nothing to show. */
export type SummaryPhase = 'loading' | 'ready' | 'failed';
export function selectSummaryPhase(wallet: WalletSnapshot | undefined): SummaryPhase {
  if (!wallet) return 'loading';
  if (wallet.context.summary) return 'ready';
  return wallet.matches({ summary: 'failed' }) ? 'failed' : 'loading';
}

export const selectDiamonds = (wallet: WalletSnapshot | undefined): number | null => wallet?.context.summary?.diamonds ?? null;

/** The recharge's step, as the screen shows it. */
export type RechargeStep = 'loading' | 'failed' | 'ready' | 'picking' | 'choosingChain' | 'ordering' | 'storePaying' | 'leaving';
export function selectRechargeStep(recharge: RechargeSnapshot | undefined): RechargeStep {
  if (!recharge) return 'loading';
  if (recharge.status === 'done') return 'leaving';
  const value = recharge.value as string;
  return (['loading', 'failed', 'ready', 'picking', 'choosingChain', 'ordering', 'storePaying'] as const).find((s) => s === value) ?? 'leaving';
}

/** SPEC §9 stages of the countdown (how the note reads them): more than 5 minutes, 5 or less, the last minute; then checking the order. */
export type CountdownStage = 'plenty' | 'soon' | 'lastMinute' | 'checking' | 'checkFailed' | 'ended';
export function selectCountdownStage(countdown: CountdownSnapshot | undefined): CountdownStage {
  if (!countdown || countdown.status === 'done') return 'ended';
  if (countdown.matches({ waiting: 'lastMinute' })) return 'lastMinute';
  if (countdown.matches({ waiting: 'soon' })) return 'soon';
  if (countdown.matches('waiting')) return 'plenty';
  if (countdown.matches('queryFailed')) return 'checkFailed';
  return 'checking';
}

/** Seconds left to pay (SPEC suspendNum). */
export const selectSuspendNum = (countdown: CountdownSnapshot | undefined): number => (countdown ? suspendNumOf(countdown.context) : 0);

/** mm:ss of a number of seconds. */
export const clockText = (seconds: number): string =>
  `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
