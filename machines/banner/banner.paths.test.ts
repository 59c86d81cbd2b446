/** Generated-path tests of the incoming-message banner (SPEC §2, §9 timers) on a simulated clock. */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { bannerMachine, tapTarget } from './banner.machine';
import type { BannerItem } from './banner.machine';

const peer: BannerItem = { from: 'yx-peer', nick: 'Peer', avatar: null, preview: 'hi', recharge: false };
const AVATAR = '/avatars/p.svg';
const service: BannerItem = { from: 'yx-cs', nick: 'Support', avatar: null, preview: 'hello', recharge: false };
const recharge: BannerItem = { from: 'yx-sys', nick: 'System information', avatar: null, preview: '[recharge successful!]', recharge: true };

const THROTTLE = afterEvent('noticeThrottle', 'banner.showing.notice.fresh');
const TIMEOUT = afterEvent('bannerTimeout', 'banner.showing');

const samples: AnyEventObject[] = [
  { type: 'banner.show', item: peer }, { type: 'banner.show', item: service }, { type: 'banner.show', item: recharge },
  { type: 'banner.tap' }, { type: 'banner.dismiss' },
  { type: 'xstate.done.actor.customerService', output: 'yx-cs' },
  { type: 'xstate.done.actor.senderAvatar', output: AVATAR },
  { type: 'xstate.done.actor.senderAvatar', output: null },
  { type: 'xstate.error.actor.senderAvatar', error: new Error('Network Connection Failure') },
  { type: THROTTLE }, { type: TIMEOUT },
];

/** A person has a picture (or the lookup fails), customer service has none. */
function avatarAnswerFits(s: AnyMachineSnapshot, e: EventObject): boolean {
  const from = (s.context as { current: BannerItem | null }).current?.from;
  const none = e.type.startsWith('xstate.done.') && (e as AnyEventObject).output === null;
  return none ? from === service.from : from === peer.from;
}

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const clock = new SimulatedClock();
  const actor = createActor(bannerMachine.provide({
    actors: {
      customerService: fromPromise(() => pending.add<string | null>('customerService', [])),
      senderAvatar: fromPromise<string | null, { account: string }>(({ input }) => pending.add('senderAvatar', [input.account])),
    },
  }), { clock, inspect });
  const navigations: string[] = [];
  actor.on('banner.navigate', (e) => navigations.push(e.to));
  actor.start();
  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    if (event.type === THROTTLE) clock.increment(2000);
    else if (event.type === TIMEOUT) clock.increment(3000); // `open` is always reached 2 s after the banner showed
    else if (event.type === 'xstate.done.actor.customerService') pending.next('customerService').resolve('yx-cs');
    else if (event.type === 'xstate.done.actor.senderAvatar') pending.latest('senderAvatar').resolve((event as AnyEventObject).output);
    else if (event.type === 'xstate.error.actor.senderAvatar') pending.latest('senderAvatar').reject((event as AnyEventObject).error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(snapshot.context.current).toEqual(state.context.current);
    if (event.type === 'banner.tap' && before.context.current) {
      const target = tapTarget(before.context.current, before.context.customerServiceId);
      if (target) expect(navigations.at(-1)).toBe(target);
      else expect(snapshot.matches('showing')).toBe(true);
    }
    if (snapshot.matches('hidden')) expect(snapshot.context.current).toBeNull();
    // One lookup runs exactly while the sender is looked up, and it is that of the banner showing.
    const lookingUp = snapshot.matches({ showing: { sender: 'lookingUp' } });
    expect(Boolean(snapshot.children.senderAvatar)).toBe(lookingUp);
    if (lookingUp) expect(pending.latest('senderAvatar').args).toEqual([snapshot.context.current?.from]);
    // A system notice (recharge ones too) is never looked up and keeps the fixed icon.
    if (snapshot.context.current?.recharge) {
      expect(snapshot.matches({ showing: { sender: 'fixedIcon' } })).toBe(true);
      expect(snapshot.context.current.avatar).toBeNull();
    }
    if (snapshot.matches({ showing: { sender: 'pictured' } })) expect(snapshot.context.current?.avatar).toBe(AVATAR);
  }
  actor.stop();
}

describeGeneratedPaths('banner', bannerMachine, {
  events: samples,
  // A waiting notice counts by being there: every kind of notice is also shown directly, so which
  // one waits adds paths but no transition.
  serializeContext: (c) => ({ ...(c as object), queued: (c as { queued: unknown }).queued !== null }),
  // While the notice is fresh (< 2 s), the 5 s timer started with it cannot have fired;
  // the customer-service lookup answers once; the sender's lookup answers as its account would.
  possible: (s, e) =>
    !(e.type === TIMEOUT && s.matches({ showing: { notice: 'fresh' } }))
    && !(e.type === 'xstate.done.actor.customerService' && s.context.customerServiceId !== null)
    && !(e.type.endsWith('.actor.senderAvatar') && !avatarAnswerFits(s, e)),
  minPaths: 20,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§2 banner] tap targets', () => {
  it('customer service opens /customer-talk, anyone else the talk screen, recharge nothing', () => {
    expect(tapTarget(service, 'yx-cs')).toBe('/customer-talk');
    expect(tapTarget(peer, 'yx-cs')).toBe('/talk?to=yx-peer&taPath=banner');
    expect(tapTarget(recharge, 'yx-cs')).toBeNull();
    expect(tapTarget(service, null)).toBe('/talk?to=yx-cs&taPath=banner');
  });
});

describe('[§2 banner] sender avatar', () => {
  it('Scenario: the sender is looked up while the banner shows and the avatar replaces the fixed icon; a recharge notice is not looked up', async () => {
    const asked: string[] = [];
    const actor = createActor(bannerMachine.provide({
      actors: {
        senderAvatar: fromPromise<string | null, { account: string }>(async ({ input }) => {
          asked.push(input.account);
          return AVATAR;
        }),
      },
    })).start();
    actor.send({ type: 'banner.show', item: recharge });
    await flush();
    expect(actor.getSnapshot().context.current?.avatar).toBeNull();
    actor.send({ type: 'banner.dismiss' });
    actor.send({ type: 'banner.show', item: peer });
    expect(actor.getSnapshot().context.current?.avatar).toBeNull();
    await flush();
    expect(actor.getSnapshot().context.current).toEqual({ ...peer, avatar: AVATAR });
    expect(asked).toEqual([peer.from]);
    actor.stop();
  });
});
