/**
 * The children that bring the talk its quota's facts (chat-quota.ts), over the composition's
 * clock, the device's record and the session's wallet. They report; the talk decides.
 */
import { fromCallback } from 'xstate';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { ChatQuotaPort } from '../ports/chat-quota.port';
import type { ClockPort } from '../ports/clock.port';
import type { ProfilesPort } from '../ports/profiles.port';
import type { WalletMachine } from '../wallet/wallet.machine';
import { localDayOf, nextLocalMidnight } from './chat-quota';
import type { TalkEvent } from './talk.machine';

/**
 * Reads the clock: the local day and whom the person wrote to on it (`quota.day`), at once and
 * again when the day turns. It wakes at the next local midnight and looks at the clock then; a
 * timer that fired early (or a clock set back) just sleeps again for what is left of the day.
 */
export function quotaDayWatcher(clock: ClockPort, record: ChatQuotaPort) {
  return fromCallback<TalkEvent, { account: string }>(({ input, sendBack }) => {
    let timer: unknown;
    let day: string | null = null;
    const check = () => {
      const now = clock.now();
      const today = localDayOf(now);
      if (today !== day) {
        day = today;
        sendBack({ type: 'quota.day', day, peers: record.load(input.account, day) });
      }
      timer = clock.setTimeout(check, Math.max(nextLocalMidnight(now) - now, 1));
    };
    check();
    return () => clock.clearTimeout(timer);
  });
}

type WalletRef = ActorRefFrom<WalletMachine>;

/**
 * Whether the person ever paid a recharge and whether they are VIP, as the session's wallet says
 * (`quota.paid`), now and as it changes (a recharge made while the chat is open lifts the quota). A wallet not asked yet is
 * asked to load its summary; one that could not load it says nothing (the quota is not applied).
 */
export const walletPaid = fromCallback<TalkEvent>(({ system, sendBack }) => {
  let told = '';
  const tell = (snapshot: SnapshotFrom<WalletMachine>) => {
    const summary = snapshot.context.summary;
    if (!summary || `${summary.paid} ${summary.vip}` === told) return;
    told = `${summary.paid} ${summary.vip}`;
    sendBack({ type: 'quota.paid', paid: summary.paid, vip: summary.vip });
  };
  let watched: { unsubscribe(): void } | null = null;
  const watch = (wallet: WalletRef) => {
    if (wallet.getSnapshot().matches({ summary: 'idle' })) wallet.send({ type: 'wallet.refresh' });
    tell(wallet.getSnapshot());
    watched = wallet.subscribe(tell);
  };
  const now = system.get('wallet') as WalletRef | undefined;
  if (now) watch(now);
  // The session starts the wallet once its code has loaded: a talk opened before finds it when it comes.
  let waiting: { unsubscribe(): void } | null = now ? null : system.inspect(() => {
    const wallet = system.get('wallet') as WalletRef | undefined;
    if (!wallet || watched) return;
    waiting?.unsubscribe();
    waiting = null;
    // After the event being inspected: the wallet is started by then.
    queueMicrotask(() => { if (!watched && !stopped) watch(wallet); });
  });
  let stopped = false;
  return () => {
    stopped = true;
    waiting?.unsubscribe();
    watched?.unsubscribe();
  };
});

/** The customer-service account (`quota.customerService`); a failed lookup says none. */
export function customerServiceOf(profiles: Pick<ProfilesPort, 'customerService'>) {
  return fromCallback<TalkEvent>(({ sendBack }) => {
    let live = true;
    profiles.customerService().then(
      (account) => live && sendBack({ type: 'quota.customerService', account }),
      () => live && sendBack({ type: 'quota.customerService', account: null }),
    );
    return () => { live = false; };
  });
}
