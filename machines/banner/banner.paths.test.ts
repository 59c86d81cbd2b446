/** Generated-path tests of the incoming-message banner (SPEC §2, §9 timers) on a simulated clock. */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { bannerMachine, tapTarget } from './banner.machine';
import type { BannerItem } from './banner.machine';

const peer: BannerItem = { from: 'yx-peer', nick: 'Peer', avatar: '/avatars/p.svg', preview: 'hi', recharge: false };
const service: BannerItem = { from: 'yx-cs', nick: 'Support', avatar: null, preview: 'hello', recharge: false };
const recharge: BannerItem = { from: 'yx-sys', nick: 'System information', avatar: null, preview: '[recharge successful!]', recharge: true };

const THROTTLE = afterEvent('noticeThrottle', 'banner.showing.fresh');
const TIMEOUT = afterEvent('bannerTimeout', 'banner.showing');

const samples: AnyEventObject[] = [
  { type: 'banner.show', item: peer }, { type: 'banner.show', item: service }, { type: 'banner.show', item: recharge },
  { type: 'banner.tap' }, { type: 'banner.dismiss' },
  { type: 'xstate.done.actor.customerService', output: 'yx-cs' },
  { type: THROTTLE }, { type: TIMEOUT },
];

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const clock = new SimulatedClock();
  const actor = createActor(bannerMachine.provide({
    actors: { customerService: fromPromise(() => pending.add<string | null>('customerService', [])) },
  }), { clock, inspect });
  const navigations: string[] = [];
  actor.on('banner.navigate', (e) => navigations.push(e.to));
  actor.start();
  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    if (event.type === THROTTLE) clock.increment(2000);
    else if (event.type === TIMEOUT) clock.increment(3000); // `open` is always reached 2 s after the banner showed
    else if (event.type === 'xstate.done.actor.customerService') pending.next('customerService').resolve('yx-cs');
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
  }
  actor.stop();
}

describeGeneratedPaths('banner', bannerMachine, {
  events: samples,
  serializeContext: (c) => c,
  // While the notice is fresh (< 2 s), the 5 s timer started with it cannot have fired;
  // the customer-service lookup answers once.
  possible: (s, e) =>
    !(e.type === TIMEOUT && s.matches({ showing: 'fresh' }))
    && !(e.type === 'xstate.done.actor.customerService' && s.context.customerServiceId !== null),
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
