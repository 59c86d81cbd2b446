/**
 * The session's per-use children composed with their ports: the talk (the talk screen's chat
 * and a call's chat, with its extras), the call with its gift machines, and the live rooms'
 * lives (hosting and viewing, with their chat). The session's composition does not import this
 * module: it loads it when a talk opens, a call starts or rings, or a live begins or is watched
 * (session.actors.ts, live-rooms.actors.ts), so their code is in no first screen.
 */
import { fromCallback, fromPromise, sendParent, sendTo } from 'xstate';
import type { AnyActorRef } from 'xstate';
import { composeCall } from '../call/call.actors';
import { composeCallRating } from '../call/call-rating.actors';
import type { LivePorts } from '../live-chat/live-chat.actors';
import { composeLiveHosting } from '../live-hosting/live-hosting.actors';
import type { LiveHostingEmitted } from '../live-hosting/live-hosting.machine';
import { composeLiveViewing } from '../live-viewing/live-viewing.actors';
import type { LiveViewingEmitted } from '../live-viewing/live-viewing.machine';
import { talkMachine } from '../talk/talk.machine';
import type { TalkEvent, TalkMachine } from '../talk/talk.machine';
import { talkExtrasMachine } from '../talk/talk-extras.machine';
import type { TalkExtrasEvent } from '../talk/talk-extras.machine';
import type { CallChildren } from '../calls/calls.types';
import type { LiveHostingMachine } from '../live-hosting/live-hosting.machine';
import type { LiveViewingMachine } from '../live-viewing/live-viewing.machine';
import type { SessionPorts } from './session.ports';
import { UnansweredError } from '../shared/intent-key';
import { customerServiceOf, quotaDayWatcher, walletPaid } from '../talk/chat-quota.actors';

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A child that runs one promise and reports its end to its parent (the talk or its extras) as an event. */
function reportBack<I, E extends TalkEvent | TalkExtrasEvent>(
  run: (input: I) => Promise<E>, failed: (input: I, reason: string, error: unknown) => E,
) {
  return fromCallback<E, I>(({ input, sendBack }) => {
    let live = true;
    run(input).then(
      (event) => live && sendBack(event),
      (error: unknown) => live && sendBack(failed(input, reasonOf(error), error)),
    );
    return () => { live = false; };
  });
}

/** The talk of SPEC §2 /talk (and of a call's chat) over the session's IM connection and lookups. */
export function composeTalk(ports: SessionPorts): TalkMachine {
  // Without the device's record, the day's count lasts as long as the chat.
  const quotaRecord = ports.chatQuota ?? { load: () => [], save: () => {} };
  const talkExtras = talkExtrasMachine.provide({
    actions: { toast: sendParent((_, text: string) => ({ type: 'talk.toast', text })) },
    actors: {
      // A failure is told as such: the extras look the peer up again.
      peerInfo: reportBack<{ peer: string }, TalkExtrasEvent>(
        async ({ peer }) => {
          const profile = (await ports.profiles.lookup([peer]))[peer];
          return {
            type: 'talk.peer', nickname: profile?.nickname ?? null, blocked: profile?.blocked ?? false,
            ...(profile?.userId !== undefined ? { userId: profile.userId } : {}), isHost: profile?.userType === 2,
            living: profile?.living === true,
          };
        },
        () => ({ type: 'talk.peerFailed' }),
      ),
      translate: reportBack<{ key: string; text: string; to: string }, TalkExtrasEvent>(
        async ({ key, text, to }) => ({ type: 'talk.translated', key, text: (await ports.translator.translate(text, to)).text }),
        ({ key }, reason) => ({ type: 'talk.translateFailed', key, reason }),
      ),
      setBlocked: reportBack<{ peer: string; blocked: boolean }, TalkExtrasEvent>(
        async ({ peer, blocked }) => {
          await ports.chat.setBlocked(peer, blocked);
          return { type: 'talk.blockDone' };
        },
        (_, reason) => ({ type: 'talk.blockFailed', reason }),
      ),
      openSecret: reportBack<{ id: number; payKey: string | null }, TalkExtrasEvent>(
        async ({ id, payKey }) => ({
          type: 'talk.secretOpened', id, info: await ports.chat.openSecret(id, payKey === null ? undefined : { idempotencyKey: payKey }),
        }),
        ({ id }, reason, error) => ({ type: 'talk.secretFailed', id, reason, unanswered: error instanceof UnansweredError }),
      ),
    },
  });
  return talkMachine.provide({
    actors: {
      // async: a port that throws at once still ends as the actor's error, handled by the talk.
      history: fromPromise(async ({ input }) =>
        ports.im.history(input.peer, { limit: input.limit, ...(input.before !== undefined ? { before: input.before } : {}) })),
    },
    actions: {
      sendText: sendTo(
        ({ system }) => system.get('imConnection') as AnyActorRef,
        (_, params: { to: string; text: string; idClient: string }) => ({ type: 'im.sendText', ...params }),
      ),
      markRead: sendTo(
        ({ system }) => system.get('conversations') as AnyActorRef,
        (_, params: { peer: string }) => ({ type: 'conversations.read', id: params.peer }),
      ),
      sendSecret: sendTo(
        ({ system }) => system.get('imConnection') as AnyActorRef,
        (_, params: { to: string; text: string; idClient: string; ext: Record<string, unknown> }) => ({ type: 'im.sendText', ...params }),
      ),
      toast: sendParent((_, text: string) => ({ type: 'child.toast', text })),
      saveQuota: (_, { account, day, peers }: { account: string; day: string; peers: readonly string[] }) => quotaRecord.save(account, day, peers),
    },
  }).provide({
    actors: {
      extras: talkExtras,
      quotaDay: quotaDayWatcher(ports.clock, quotaRecord),
      walletPaid,
      customerService: customerServiceOf(ports.profiles),
      storeSecret: reportBack<{ idClient: string; to: string; price: number; content: string }, TalkEvent>(
        async ({ idClient, to, price, content }) => ({ type: 'talk.secretStored', idClient, ext: await ports.chat.storeSecret({ to, price, content }) }),
        ({ idClient }, reason) => ({ type: 'talk.secretNotStored', idClient, text: reason }),
      ),
    },
  });
}

/** A call and its chat with the peer. */
export function composeCallChildren(ports: SessionPorts): CallChildren {
  return {
    call: composeCall({
      api: ports.callApi, rtc: ports.rtc, signalling: ports.signalling, gifts: ports.giftApi,
      setTimeout: ports.clock.setTimeout, clearTimeout: ports.clock.clearTimeout, clock: ports.clock,
    }),
    chat: composeTalk(ports),
    rating: composeCallRating(ports.callApi),
  };
}

/** The lives of the live rooms; what each asks for (`report`) comes up to the live rooms as events. */
export function composeLives(ports: LivePorts): { hosting: LiveHostingMachine; viewing: LiveViewingMachine } {
  return {
    hosting: composeLiveHosting(ports).provide({ actions: { report: sendParent((_, params: LiveHostingEmitted) => params) } }),
    viewing: composeLiveViewing(ports).provide({ actions: { report: sendParent((_, params: LiveViewingEmitted) => params) } }),
  };
}
