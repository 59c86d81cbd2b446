/**
 * Realtime ports for tests of machines that own a signed-in session: manual-mode fakes
 * (nothing answers until the test says so) or auto-mode fakes wired to in-memory servers.
 */
import { SimulatedClock } from 'xstate';
import type { ClockPort } from '../idle-host/idle-host.actors';
import { FakeImNetwork, FakeImPort } from '../ports/im.fake';
import { PendingCalls } from '../ports/pending';
import type { CallApiPort, RtcEvent, RtcPort } from '../ports/call.port';
import type { GiftApiPort } from '../ports/gift.port';
import { FakeSignallingPort } from '../ports/signalling.fake';
import { FakePresencePort, FakePresenceServer } from '../ports/presence.fake';
import { FakeChatroomPort } from '../ports/chatroom.fake';
import { FakeLiveApi, FakeLiveMedia } from '../ports/live.fake';
import type { RealtimePorts } from '../session/session.actors';

export const clockPortOf = (clock: SimulatedClock): ClockPort => ({
  now: () => clock.now(),
  setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
  clearTimeout: (id) => clock.clearTimeout(id as number),
});

/** A call API whose every answer the test gives (PendingCalls). */
export function manualCallApi(pending: PendingCalls): CallApiPort {
  return {
    createCall: (request) => pending.add('createCall', [request]),
    joinCall: (channelId, idempotencyKey) => pending.add('joinCall', [channelId, idempotencyKey]),
    endCall: (channelId, reason) => pending.add('endCall', [channelId, reason]),
    rate: (rating) => pending.add('rate', [rating]),
    peerCard: (account) => pending.add('peerCard', [account]),
    terms: (channelId) => pending.add('terms', [channelId]),
  };
}

/** A gift API whose every answer the test gives (PendingCalls). */
export function manualGiftApi(pending: PendingCalls): GiftApiPort {
  return {
    list: (filter) => pending.add('giftList', [filter]),
    send: (request) => pending.add('sendGift', [request]),
    askFor: (request) => pending.add('askFor', [request]),
    refuseAsk: (askId) => pending.add('refuseAsk', [askId]),
  };
}

/**
 * Media whose every answer the test gives; `emit` delivers media events. One preparation per call,
 * as the port says: a prepare while one is under way or done answers with it (until a leave).
 * Camera and microphone are not allowed ahead (the ring waits for them) until `allowMedia(true)`.
 */
export function manualRtc(pending: PendingCalls): RtcPort & { emit(event: RtcEvent): void; allowMedia(allowed: boolean): void } {
  const listeners = new Set<(event: RtcEvent) => void>();
  let preparing: { video: boolean; done: Promise<void> } | null = null;
  let allowed = false;
  return {
    prepare: (video) => {
      if (preparing?.video === video) return preparing.done;
      const mine = { video, done: pending.add<void>('prepare', [video]) };
      preparing = mine;
      mine.done.catch(() => {
        if (preparing === mine) preparing = null;
      });
      return mine.done;
    },
    join: (channelId, account) => pending.add('join', [channelId, account]),
    leave: () => {
      preparing = null;
      return pending.add('leave', []);
    },
    mediaAllowed: () => allowed,
    allowMedia: (yes) => { allowed = yes; },
    subscribe: (listener) => { listeners.add(listener); return () => listeners.delete(listener); },
    emit: (event) => listeners.forEach((l) => l(event)),
  };
}

export function manualRealtime(clock = new SimulatedClock()) {
  const im = new FakeImPort(undefined, 'manual');
  const presence = new FakePresencePort(undefined, 'session-token', 'manual');
  const pending = new PendingCalls();
  const ports: RealtimePorts = {
    im,
    presence,
    clock: clockPortOf(clock),
    loadIdleMinutes: () => pending.add('loadIdleMinutes', []),
    customerServiceAccount: () => pending.add('customerServiceAccount', []),
    lookupProfiles: (accounts) => pending.add('lookupProfiles', [accounts]),
    translate: (text, to) => pending.add('translate', [text, to]),
    signalling: new FakeSignallingPort(undefined, 'manual'),
    rtmToken: () => pending.add('rtmToken', []),
    callApi: manualCallApi(pending),
    rtc: manualRtc(pending),
    giftApi: manualGiftApi(pending),
    liveApi: new FakeLiveApi(undefined, 0, 'manual'),
    liveMedia: new FakeLiveMedia(undefined, 'manual'),
    chatroom: new FakeChatroomPort(undefined, 'manual'),
    setBlocked: (peer, blocked) => pending.add('setBlocked', [peer, blocked]),
    storeSecret: (secret) => pending.add('storeSecret', [secret]),
    openSecret: (id, payment) => pending.add('openSecret', [id, payment]),
    loadPins: () => [],
    savePins: () => {},
  };
  return { ports, im, presence, pending, clock };
}

/** Auto-mode fakes: `account`/`token` can log in to IM, `sessionToken` can open presence. */
export function autoRealtime(account: string, token: string, sessionToken = 'session-token') {
  const network = new FakeImNetwork();
  network.register(account, token);
  const presenceServer = new FakePresenceServer();
  presenceServer.register(sessionToken, account);
  const ports: RealtimePorts = {
    im: new FakeImPort(network),
    presence: new FakePresencePort(presenceServer, sessionToken),
    clock: { now: () => Date.now(), setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id as number) },
    loadIdleMinutes: () => Promise.resolve(1),
    customerServiceAccount: () => Promise.resolve(null),
    lookupProfiles: () => Promise.resolve({}),
    translate: (text) => Promise.resolve(text),
    signalling: new FakeSignallingPort(),
    rtmToken: () => Promise.resolve('rtm-token'),
    callApi: manualCallApi(new PendingCalls()),
    rtc: manualRtc(new PendingCalls()),
    giftApi: manualGiftApi(new PendingCalls()),
    setBlocked: () => Promise.resolve(),
    storeSecret: () => Promise.reject(new Error('No secret messages here')),
    openSecret: () => Promise.reject(new Error('No secret messages here')),
    loadPins: () => [],
    savePins: () => {},
  };
  return { ports, network, presenceServer };
}
