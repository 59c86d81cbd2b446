/**
 * The non-paid user quota of the talk screen's chat (SPEC §3 businessConfig.nonPaidUserCount,
 * §4 Recharge "Non-paid user quota resets at the end of the local day"): the rule, the local day
 * on a simulated clock, and the talk's `withinQuota` guard over its composed children.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, assign, createActor, setup } from 'xstate';
import type { AnyActorRef } from 'xstate';
import { FakeChatQuotaPort } from '../ports/chat-quota.fake';
import { clockPortOf } from '../testing/realtime';
import { flush } from '../testing/paths';
import { chatLimitOf, localDayOf, nextLocalMidnight, quotaCounts, quotaOf, quotaReached } from './chat-quota';
import type { ChatQuota } from './chat-quota';
import { customerServiceOf, quotaDayWatcher, walletPaid } from './chat-quota.actors';
import { talkMachine } from './talk.machine';
import type { TalkEvent } from './talk.machine';

/** A local clock time (the device's time zone, whatever the machine running the tests uses). */
const local = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min).getTime();

const facts = (over: Partial<ChatQuota> = {}): ChatQuota => ({
  ...quotaOf({ limit: 3, isHost: false }), paid: false, day: '2026-11-28', peers: [], customerService: 'yx-service', ...over,
});

describe('[§4 Recharge] the non-paid user quota', () => {
  it('allows as many different people as the limit a day, then refuses someone new', () => {
    const written = facts({ peers: ['yx-a', 'yx-b'] });
    expect(quotaReached(written, 'yx-c')).toBe(false);
    expect(quotaCounts(written, 'yx-c')).toBe(true);
    const full = facts({ peers: ['yx-a', 'yx-b', 'yx-c'] });
    expect(quotaReached(full, 'yx-d')).toBe(true);
  });

  it('the same person twice counts once: someone already written to today is always allowed', () => {
    const full = facts({ peers: ['yx-a', 'yx-b', 'yx-c'] });
    expect(quotaReached(full, 'yx-b')).toBe(false);
    expect(quotaCounts(full, 'yx-b')).toBe(false);
  });

  it('a limit of 0 (or none, or business features off) is no limit', () => {
    const unlimited = facts({ limit: 0, peers: ['yx-a', 'yx-b', 'yx-c'] });
    expect(quotaReached(unlimited, 'yx-d')).toBe(false);
    expect(quotaCounts(unlimited, 'yx-d')).toBe(false);
    expect(chatLimitOf(null)).toBe(0);
    expect(chatLimitOf({ businessEnabled: true, nonPaidUserCount: 3 })).toBe(3);
    expect(chatLimitOf({ businessEnabled: true, nonPaidUserCount: 0 })).toBe(0);
    expect(chatLimitOf({ businessEnabled: false, nonPaidUserCount: 3 })).toBe(0);
    expect(chatLimitOf({ businessEnabled: true, nonPaidUserCount: -1 })).toBe(0);
  });

  it('a person who paid, and a host, are never limited nor counted', () => {
    expect(quotaReached(facts({ paid: true, peers: ['yx-a', 'yx-b', 'yx-c'] }), 'yx-d')).toBe(false);
    expect(quotaCounts(facts({ paid: true }), 'yx-d')).toBe(false);
    expect(quotaReached(facts({ isHost: true, peers: ['yx-a', 'yx-b', 'yx-c'] }), 'yx-d')).toBe(false);
    expect(quotaCounts(facts({ isHost: true }), 'yx-d')).toBe(false);
  });

  it('customer service is never counted nor limited', () => {
    expect(quotaReached(facts({ peers: ['yx-a', 'yx-b', 'yx-c'] }), 'yx-service')).toBe(false);
    expect(quotaCounts(facts(), 'yx-service')).toBe(false);
  });

  it('a person the wallet has not answered for yet is counted but not refused; a chat with no quota is neither', () => {
    expect(quotaReached(facts({ paid: null, peers: ['yx-a', 'yx-b', 'yx-c'] }), 'yx-d')).toBe(false);
    expect(quotaCounts(facts({ paid: null }), 'yx-d')).toBe(true);
    expect(quotaReached(null, 'yx-d')).toBe(false);
    expect(quotaCounts(null, 'yx-d')).toBe(false);
  });

  it('the day is the local calendar day, ending at local midnight', () => {
    expect(localDayOf(local(2026, 11, 28, 0, 0))).toBe('2026-11-28');
    expect(localDayOf(local(2026, 11, 28, 23, 59))).toBe('2026-11-28');
    expect(localDayOf(local(2026, 11, 29, 0, 0))).toBe('2026-11-29');
    expect(localDayOf(local(2026, 12, 31, 23, 0))).toBe('2026-12-31');
    expect(nextLocalMidnight(local(2026, 11, 28, 23, 59))).toBe(local(2026, 11, 29, 0, 0));
    expect(nextLocalMidnight(local(2026, 12, 31, 0, 0))).toBe(local(2027, 1, 1, 0, 0));
  });
});

/** A parent that hears what a quota child reports. */
function hear(child: ReturnType<typeof quotaDayWatcher> | typeof walletPaid, input?: unknown) {
  const heard: TalkEvent[] = [];
  const parent = setup({ actors: { child } }).createMachine({
    invoke: { src: 'child', input: input as never },
    on: { '*': { actions: ({ event }) => { if (event.type.startsWith('quota.')) heard.push(event as TalkEvent); } } },
  });
  return { heard, actor: createActor(parent).start() };
}

describe('[§4 Recharge] the quota resets at the end of the local day', () => {
  it('Scenario: the day\'s record is read at once; at local midnight the new day starts empty; nothing in between', () => {
    const clock = new SimulatedClock();
    clock.set(local(2026, 11, 28, 23, 58));
    const record = new FakeChatQuotaPort();
    record.save('me', '2026-11-28', ['yx-a', 'yx-b', 'yx-c']);
    const { heard, actor } = hear(quotaDayWatcher(clockPortOf(clock), record), { account: 'me' });
    expect(heard).toEqual([{ type: 'quota.day', day: '2026-11-28', peers: ['yx-a', 'yx-b', 'yx-c'] }]);
    clock.increment(60_000);
    expect(heard).toHaveLength(1);
    clock.increment(60_000);
    expect(heard.at(-1)).toEqual({ type: 'quota.day', day: '2026-11-29', peers: [] });
    clock.increment(23 * 3_600_000);
    expect(heard).toHaveLength(2);
    actor.stop();
  });
});

describe('the quota\'s facts', () => {
  const walletStandIn = (summary: { paid: boolean; vip: boolean } | null) => setup({
    types: {
      context: {} as { summary: { paid: boolean; vip: boolean } | null },
      events: {} as { type: 'wallet.refresh' } | { type: 'loaded'; paid: boolean; vip?: boolean },
    },
  }).createMachine({
    type: 'parallel',
    context: { summary },
    states: {
      summary: {
        initial: summary ? 'ready' : 'idle',
        states: { idle: { on: { 'wallet.refresh': 'loading' } }, loading: {}, ready: {} },
        on: { loaded: { target: '.ready', actions: assign({ summary: ({ event }) => ({ paid: event.paid, vip: event.vip ?? false }) }) } },
      },
    },
  });

  it('Scenario: a wallet not asked yet is asked; what it says of paying is told, and again when it changes', () => {
    const heard: TalkEvent[] = [];
    const parent = setup({ actors: { walletPaid } }).createMachine({
      invoke: { src: 'walletPaid' },
      on: { '*': { actions: ({ event }) => { if (event.type.startsWith('quota.')) heard.push(event as TalkEvent); } } },
    });
    // One system: the talk's parent is under the session, beside the wallet.
    const root = setup({ actors: { wallet: walletStandIn(null), parent } }).createMachine({
      invoke: [{ id: 'wallet', systemId: 'wallet', src: 'wallet' }, { id: 'parent', src: 'parent' }],
    });
    const actor = createActor(root).start();
    const inner = actor.system.get('wallet') as AnyActorRef;
    expect(inner.getSnapshot().value).toEqual({ summary: 'loading' });
    expect(heard).toEqual([]);
    inner.send({ type: 'loaded', paid: false });
    expect(heard).toEqual([{ type: 'quota.paid', paid: false, vip: false }]);
    inner.send({ type: 'loaded', paid: false });
    expect(heard).toHaveLength(1);
    inner.send({ type: 'loaded', paid: false, vip: true });
    expect(heard.at(-1)).toEqual({ type: 'quota.paid', paid: false, vip: true });
    inner.send({ type: 'loaded', paid: true });
    expect(heard.at(-1)).toEqual({ type: 'quota.paid', paid: true, vip: false });
    expect(heard).toHaveLength(3);
    actor.stop();
  });

  it('Scenario: the customer-service account is told; a failed lookup tells none', async () => {
    const found = hear(customerServiceOf({ customerService: () => Promise.resolve('yx-service') }) as never);
    const failed = hear(customerServiceOf({ customerService: () => Promise.reject(new Error('offline')) }) as never);
    await flush();
    expect(found.heard).toEqual([{ type: 'quota.customerService', account: 'yx-service' }]);
    expect(failed.heard).toEqual([{ type: 'quota.customerService', account: null }]);
  });
});

describe('[§4 Recharge] the talk refuses a text to one person too many', () => {
  function talkWith(peer: string, input: { limit: number; isHost?: boolean } | null) {
    const sends: unknown[] = [];
    const saved: unknown[] = [];
    const actor = createActor(talkMachine.provide({
      actions: { sendText: (_, params) => { sends.push(params); }, saveQuota: (_, params) => { saved.push(params); } },
    }), { input: { peer, account: 'me', ...(input ? { quota: { limit: input.limit, isHost: input.isHost ?? false } } : {}) } }).start();
    const send = (idClient: string) => actor.send({ type: 'talk.send', text: 'hi', idClient, time: 1 });
    const has = (idClient: string) => actor.getSnapshot().context.messages.some((m) => m.idClient === idClient);
    return { actor, sends, saved, send, has };
  }

  it('Scenario: three people written to today, a non-payer\'s text to a fourth is not sent and not counted; VIP or a recharge lifts it', () => {
    const t = talkWith('yx-d', { limit: 3 });
    t.actor.send({ type: 'quota.day', day: '2026-11-28', peers: ['yx-a', 'yx-b', 'yx-c'] });
    t.actor.send({ type: 'quota.paid', paid: false, vip: false });
    t.send('c1');
    expect(t.has('c1')).toBe(false);
    expect(t.sends).toEqual([]);
    expect(t.saved).toEqual([]);
    // VIP bought meanwhile lifts it, as a recharge paid does.
    t.actor.send({ type: 'quota.paid', paid: false, vip: true });
    t.send('c1b');
    expect(t.has('c1b')).toBe(true);
    t.actor.send({ type: 'quota.paid', paid: false, vip: false });
    t.send('c1c');
    expect(t.has('c1c')).toBe(false);
    t.actor.send({ type: 'quota.paid', paid: true, vip: false });
    t.send('c2');
    expect(t.sends).toEqual([{ to: 'yx-d', text: 'hi', idClient: 'c1b' }, { to: 'yx-d', text: 'hi', idClient: 'c2' }]);
    expect(t.saved).toEqual([]);
  });

  it('Scenario: someone new is counted and the record kept once; writing again counts nothing more', () => {
    const t = talkWith('yx-c', { limit: 3 });
    t.actor.send({ type: 'quota.day', day: '2026-11-28', peers: ['yx-a'] });
    t.actor.send({ type: 'quota.paid', paid: false, vip: false });
    t.send('c1');
    t.send('c2');
    expect(t.sends).toHaveLength(2);
    expect(t.saved).toEqual([{ account: 'me', day: '2026-11-28', peers: ['yx-a', 'yx-c'] }]);
  });

  it('Scenario: after local midnight the new day\'s empty record lets the fourth person be written to', () => {
    const t = talkWith('yx-d', { limit: 3 });
    t.actor.send({ type: 'quota.day', day: '2026-11-28', peers: ['yx-a', 'yx-b', 'yx-c'] });
    t.actor.send({ type: 'quota.paid', paid: false, vip: false });
    t.send('c1');
    expect(t.has('c1')).toBe(false);
    t.actor.send({ type: 'quota.day', day: '2026-11-29', peers: [] });
    t.send('c2');
    expect(t.has('c2')).toBe(true);
    expect(t.saved).toEqual([{ account: 'me', day: '2026-11-29', peers: ['yx-d'] }]);
  });

  it('Scenario: a host, customer service and a call\'s chat (no quota) are never refused', () => {
    const host = talkWith('yx-d', { limit: 1, isHost: true });
    host.actor.send({ type: 'quota.day', day: '2026-11-28', peers: ['yx-a'] });
    host.actor.send({ type: 'quota.paid', paid: false, vip: false });
    host.send('c1');
    expect(host.has('c1')).toBe(true);
    const service = talkWith('yx-service', { limit: 1 });
    service.actor.send({ type: 'quota.day', day: '2026-11-28', peers: ['yx-a'] });
    service.actor.send({ type: 'quota.paid', paid: false, vip: false });
    service.actor.send({ type: 'quota.customerService', account: 'yx-service' });
    service.send('c1');
    expect(service.has('c1')).toBe(true);
    expect(service.saved).toEqual([]);
    const call = talkWith('yx-d', null);
    call.actor.send({ type: 'quota.day', day: '2026-11-28', peers: ['yx-a'] });
    call.actor.send({ type: 'quota.paid', paid: false, vip: false });
    call.send('c1');
    expect(call.has('c1')).toBe(true);
    expect(call.actor.getSnapshot().context.quota).toBeNull();
    // Its facts are gathered only where the quota can apply (nothing asked of the wallet for a host or a call's chat).
    expect(Object.keys(service.actor.getSnapshot().children)).toEqual(expect.arrayContaining(['quotaDay', 'walletPaid', 'customerService']));
    for (const t of [host, call, talkWith('yx-d', { limit: 0 })]) {
      expect(Object.keys(t.actor.getSnapshot().children).filter((id) => ['quotaDay', 'walletPaid', 'customerService'].includes(id))).toEqual([]);
    }
    for (const t of [host, service, call]) t.actor.stop();
  });
});
