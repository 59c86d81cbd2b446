/**
 * The session's calls composed with signalling: the link (login with a fresh RTM token, the
 * drops, the logout at the end), the rings heard and the busy replies. The loaders of the
 * call's and its chat's code come from the session's composition (session.actors.ts).
 */
import { fromCallback, fromPromise, sendParent } from 'xstate';
import type { PromiseActorLogic } from 'xstate';
import type { TalkMachine } from '../talk/talk.machine';
import { SignalAction } from '../ports/signalling.port';
import type { SignallingPort } from '../ports/signalling.port';
import type { TokensPort } from '../ports/tokens.port';
import { callsMachine } from './calls.machine';
import type { CallChildren, CallsOutput } from './calls.machine';
import { signalLinkMachine } from './signal-link.machine';

export interface CallsPorts {
  signalling: SignallingPort;
  tokens: Pick<TokensPort, 'rtm'>;
}

/** The calls' link to signalling over its port: the login with a fresh RTM token, the drops, the logout at the end. */
export function composeSignalLink(ports: CallsPorts) {
  const { signalling } = ports;
  return signalLinkMachine.provide({
    actors: {
      login: fromPromise(async ({ input }) => signalling.login(input.account, await ports.tokens.rtm())),
      link: fromCallback(({ sendBack }) => {
        const unsubscribe = signalling.subscribe((event) => { if (event.type === 'disconnected') sendBack({ type: 'signal.disconnected' }); });
        return () => {
          unsubscribe();
          signalling.logout().catch(() => undefined);
        };
      }),
    },
  });
}

/**
 * The session's calls over signalling, with the loaders of their code (`loadCall`, `loadTalk`);
 * what they ask for comes up to their parent as its events.
 */
export function composeCalls(ports: CallsPorts, loaders: { loadCall: PromiseActorLogic<CallChildren>; loadTalk: PromiseActorLogic<TalkMachine> }) {
  const { signalling } = ports;
  return callsMachine.provide({
    actors: {
      ...loaders,
      signalLink: composeSignalLink(ports),
      rings: fromCallback(({ sendBack }) => signalling.subscribe((event) => {
        if (event.type === 'signal' && (event.signal.action === SignalAction.videoCall || event.signal.action === SignalAction.audioCall)) {
          sendBack({ type: 'call.ringing', signal: event.signal });
        }
      })),
      busyReply: fromPromise(async ({ input: signal }) => {
        await signalling.send(signal.from, { action: SignalAction.reject, channelId: signal.channelId, payload: { busy: true } }).catch(() => undefined);
      }),
    },
    actions: { output: sendParent((_, params: CallsOutput) => params) },
  });
}
