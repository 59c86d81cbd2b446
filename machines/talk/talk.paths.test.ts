/**
 * Generated-path tests of one peer chat (SPEC §2 /talk, §5 sending, §4 non-paid user quota):
 * every path is replayed on the real actor with a manual history port and recorded sends, read
 * marks and kept day records. The talk screen's chat (with a quota of 1) is walked through the
 * quota's facts, a send, and the turn of the day; a call's chat has none.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { ImCode, ImError } from '../ports/im.port';
import type { ImMessage } from '../ports/im.port';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { HISTORY_PAGE, MAX_TEXT, talkMachine, textToSend, withMessages } from './talk.machine';
import type { TalkContext, TalkInput, TalkMessage } from './talk.machine';
import { quotaCounts, quotaReached } from './chat-quota';

const msg = (idServer: string, time: number, over: Partial<ImMessage> = {}): ImMessage => ({
  idClient: `c-${idServer}`, idServer, from: 'peer', to: 'me', sessionId: 'peer', scene: 'p2p', flow: 'in',
  type: 'text', text: idServer, time, status: 'sent', ...over,
});
const fullPage = Array.from({ length: HISTORY_PAGE }, (_, i) => msg(`h${i}`, 1000 + i));

/** Secret messages: stored first (a child reports back), then sent, or failed when not stored; a failure the extras want told comes up as talk.toast. */
const EXTRAS: AnyEventObject[] = [
  { type: 'talk.sendSecret', idClient: 'sec1', time: 9100, price: 10, content: ' a secret ' },
  { type: 'talk.sendSecret', idClient: 'sec2', time: 9101, price: 0, content: 'free?' },
  { type: 'talk.secretStored', idClient: 'sec1', ext: { extensionType: 'privateMsg', data: { id: 7, price: 10 } } },
  { type: 'talk.secretNotStored', idClient: 'sec1', text: 'The secret could not be stored' },
  { type: 'talk.toast', text: 'You do not have enough diamonds.' },
];
const EXTRA_TYPES = new Set(EXTRAS.map((e) => e.type));

/** The quota's facts, as the talk screen's chat gets them: one person a day; the peer written to is someone new. */
const QUOTA: AnyEventObject[] = [
  { type: 'quota.day', day: '2026-11-28', peers: ['yx-other'] },
  { type: 'quota.day', day: '2026-11-29', peers: [] },
  { type: 'quota.paid', paid: false, vip: false },
  { type: 'quota.paid', paid: true, vip: false },
  { type: 'quota.customerService', account: 'peer' },
];
const QUOTA_TYPES = new Set(QUOTA.map((e) => e.type));
/** The events the quota's chat is walked with: its history (one page), its facts and one text. */
const QUOTA_WALK = new Set(['xstate.done.actor.0.talk.loading', 'talk.send', ...QUOTA_TYPES]);

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.0.talk.loading', output: fullPage },
  { type: 'xstate.done.actor.0.talk.loading', output: [msg('h1', 5)] },
  { type: 'xstate.error.actor.0.talk.loading', error: new Error('history failed') },
  { type: 'xstate.error.actor.0.talk.loading', error: new ImError(ImCode.linkLost, 'IM is not logged in') },
  { type: 'im.connected' },
  { type: 'xstate.done.actor.0.talk.ready.loadingOlder', output: [msg('o1', 1)] },
  { type: 'xstate.done.actor.0.talk.ready.loadingOlder', output: Array.from({ length: HISTORY_PAGE }, (_, i) => msg(`o${i}`, 100 + i)) },
  { type: 'xstate.error.actor.0.talk.ready.loadingOlder', error: new Error('offline') },
  { type: 'talk.loadOlder' },
  { type: 'talk.retry' },
  { type: 'talk.send', text: '  hello  ', idClient: 'c1', time: 9000 },
  { type: 'talk.send', text: '   ', idClient: 'c2', time: 9001 },
  { type: 'talk.send', text: 'x'.repeat(64 * 1024), idClient: 'c3', time: 9003 },
  { type: 'im.message', message: msg('s9', 9500) },
  { type: 'im.message', message: msg('x1', 9600, { sessionId: 'someone-else' }) },
  { type: 'im.sent', idClient: 'c1', message: msg('s10', 9002, { idClient: 'c1', flow: 'out', from: 'me', to: 'peer', text: 'hello' }) },
  { type: 'im.sendFailed', idClient: 'c1', reason: 'refused', text: 'refused' },
  { type: 'im.sendFailed', idClient: 'c1', reason: 'notConnected', text: 'Connection not established. Please kill the app and try again.' },
  ...EXTRAS,
  ...QUOTA,
];

const coarse = (c: TalkContext) => [
  Math.min(c.messages.length, 3), c.messages.some((m) => m.status === 'sending'), c.error !== null,
  c.messages.some((m) => m.status === 'sending' && m.ext !== undefined),
  c.quota && [c.quota.day, c.quota.paid, c.quota.peers.length, c.quota.customerService],
];

/** How many states of the paths refused a text to one person too many (the quota's walk must reach one). */
let refusals = 0;

async function replay(input: TalkInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const saved: unknown[] = [];
  const sends: unknown[] = [];
  const reads: unknown[] = [];
  const toasts: string[] = [];
  const actor = createActor(talkMachine.provide({
    actors: { history: fromPromise(({ input }) => pending.add<ImMessage[]>('history', [input])) },
    actions: {
      sendText: (_, params) => { sends.push(params); },
      markRead: (_, params) => { reads.push(params); },
      sendSecret: (_, params) => { sends.push(params); },
      saveQuota: (_, params) => { saved.push(params); },
    },
  }), { input, inspect });
  actor.on('toast', (t) => toasts.push(t.text));
  actor.start();
  expect(reads).toEqual([{ peer: 'peer' }]);

  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    const [sendsBefore, readsBefore, savedBefore] = [sends.length, reads.length, saved.length];
    const e = event as AnyEventObject;
    if (event.type.startsWith('xstate.done') || event.type.startsWith('xstate.error')) {
      const call = pending.next('history');
      if (event.type.startsWith('xstate.done')) call.resolve(e.output);
      else call.reject(e.error);
    } else {
      actor.send(event as never);
    }
    await flush();
    const snapshot = actor.getSnapshot();
    const ctx = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    expect(coarse(ctx)).toEqual(coarse(state.context as TalkContext));
    // In time order, each message once.
    expect(ctx.messages.map((m) => m.time)).toEqual([...ctx.messages.map((m) => m.time)].sort((a, b) => a - b));
    const servers = ctx.messages.map((m) => m.idServer).filter(Boolean);
    expect(new Set(servers).size).toBe(servers.length);
    // Wherever the day's quota is reached (SPEC §4), a text to the peer is refused: nothing sent, shown or counted.
    if (quotaReached(ctx.quota, 'peer')) {
      const [sendsNow, savedNow] = [sends.length, saved.length];
      actor.send({ type: 'talk.send', text: 'one more', idClient: 'refused', time: 9999 });
      expect(actor.getSnapshot().context).toBe(ctx);
      expect([sends.length, saved.length]).toEqual([sendsNow, savedNow]);
      refusals++;
    }
    if (event.type === 'talk.send') {
      const text = textToSend(e.text as string);
      const quota = before.context.quota;
      // One person too many today: nothing sent, nothing shown, nothing counted; someone new is kept in the day's record once.
      const sent = text !== null && !quotaReached(quota, 'peer');
      if (quotaCounts(quota, 'peer') && sent) {
        expect(saved.slice(savedBefore)).toEqual([{ account: 'me', day: quota.day, peers: [...quota.peers, 'peer'] }]);
      } else expect(saved).toHaveLength(savedBefore);
      if (!sent) {
        expect(sends).toHaveLength(sendsBefore);
        expect(ctx.messages).toEqual(before.context.messages);
      } else {
        expect(sends.at(-1)).toEqual({ to: 'peer', text, idClient: e.idClient });
        expect(ctx.messages.find((m) => m.idClient === e.idClient)?.status).toBe('sending');
      }
    }
    if (event.type === 'im.message') {
      const fromPeer = (e.message as ImMessage).sessionId === 'peer';
      expect(reads.length).toBe(readsBefore + (fromPeer ? 1 : 0));
      expect(ctx.messages.some((m) => m.idServer === (e.message as ImMessage).idServer)).toBe(fromPeer);
    }
    if (event.type === 'im.sendFailed' && before.context.messages.some((m) => m.idClient === 'c1' && m.status === 'sending')) {
      expect(ctx.messages.find((m) => m.idClient === 'c1')).toMatchObject({ status: e.reason === 'refused' ? 'refused' : 'failed', reason: e.text });
    }
    if (event.type === 'talk.sendSecret' && e.price === 0) expect(ctx.messages.some((m) => m.idClient === 'sec2')).toBe(false);
    if (event.type === 'talk.secretStored' && before.context.messages.some((m) => m.idClient === 'sec1' && m.status === 'sending')) {
      expect(sends.at(-1)).toEqual({ to: 'peer', text: 'a secret', idClient: 'sec1', ext: e.ext });
    }
    if (event.type === 'talk.secretNotStored' && before.context.messages.some((m) => m.idClient === 'sec1' && m.status === 'sending')) {
      expect(ctx.messages.find((m) => m.idClient === 'sec1')).toMatchObject({ status: 'failed', reason: e.text });
    }
    if (event.type === 'talk.toast') expect(toasts.at(-1)).toBe(e.text);
    if (event.type === 'talk.loadOlder' && snapshot.matches({ ready: 'loadingOlder' })) {
      const oldest = before.context.messages.find((m) => m.status !== 'sending');
      expect(pending.argsOf('history').at(-1)).toEqual([{ peer: 'peer', limit: HISTORY_PAGE, before: oldest?.time }]);
    }
  }
  actor.stop();
}

describeGeneratedPaths<TalkInput>('talk', talkMachine, {
  events: samples,
  inputs: {
    'peer chat': { peer: 'peer', account: 'me' },
    'talk screen with a quota of one person a day': { peer: 'peer', account: 'me', quota: { limit: 1, isHost: false } },
  },
  serializeContext: (c) => coarse(c as TalkContext),
  minPaths: 20,
  // A reconnect while reading is the same whatever was said before: taken once the history is in, before any send.
  possible: (s, event) => {
    const ctx = s.context as TalkContext;
    const e = event as AnyEventObject;
    // The quota's facts only where there is a quota, and that chat walked with them, its history and one text.
    if (QUOTA_TYPES.has(e.type) && !ctx.quota) return false;
    if (ctx.quota) {
      if (!QUOTA_WALK.has(e.type) || (e.type === 'xstate.done.actor.0.talk.loading' && (e.output as ImMessage[]).length === HISTORY_PAGE)) return false;
      if (e.type === 'talk.send') return e.idClient === 'c1' && ctx.messages.every((m) => m.flow === 'in');
      // The facts arrive the same way in any state: taken once the history is in, each day after the one before,
      // and paying or customer service only once the wallet said the person never paid.
      if (!QUOTA_TYPES.has(e.type)) return true;
      if (!s.matches('ready')) return false;
      if (e.type === 'quota.day') return ctx.quota.day === (e.day === '2026-11-28' ? null : '2026-11-28');
      if (e.type === 'quota.paid') return e.paid === false ? ctx.quota.paid === null : ctx.quota.paid === false;
      return ctx.quota.paid === false && ctx.quota.day !== null;
    }
    // The extras do not depend on the chat's state: taken in a settled chat with at most one message.
    if (EXTRA_TYPES.has(e.type)) return (s.matches('ready') && ctx.messages.length <= 2) || e.type === 'talk.secretStored' || e.type === 'talk.secretNotStored';
    return e.type !== 'im.connected' || !s.matches('ready') || ctx.messages.every((m) => m.flow === 'in');
  },
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('talk rules', () => {
  it('trims, ignores empty text and refuses more than 200 characters (an emoji counts once) without cutting it', () => {
    expect(textToSend('  hi  ')).toBe('hi');
    expect(textToSend(' \n\t ')).toBeNull();
    expect(textToSend('😀'.repeat(MAX_TEXT))).toBe('😀'.repeat(MAX_TEXT));
    expect(textToSend('😀'.repeat(MAX_TEXT + 1))).toBeNull();
    expect(textToSend(`  ${'a'.repeat(MAX_TEXT)}  `)).toBe('a'.repeat(MAX_TEXT));
  });

  it('keeps one copy per server id and our own message by client id, in time order', () => {
    const own: TalkMessage = { ...msg('', 3, { idClient: 'mine', flow: 'out' }), status: 'sending' };
    const merged = withMessages([msg('a', 2) as TalkMessage, own], [msg('a', 2) as TalkMessage, msg('b', 1) as TalkMessage]);
    expect(merged.map((m) => m.idServer || m.idClient)).toEqual(['b', 'a', 'mine']);
    const settled = withMessages(merged, [{ ...own, idServer: 'srv', status: 'sent' }]);
    expect(settled.filter((m) => m.idClient === 'mine')).toHaveLength(1);
  });
});

describe('talk quota paths', () => {
  it('[§4 Recharge] the quota\'s walk reaches states where a text to one person too many is refused', () => {
    expect(refusals).toBeGreaterThan(0);
  });
});
