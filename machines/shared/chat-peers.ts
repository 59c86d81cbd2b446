/**
 * The peers whose chat is open: the talk screen's (`talks`, from its opening, unless its code
 * could not be loaded: no chat shows that peer's messages then) and the call's
 * (`calls`, from the loading of the call's code to its end). Their messages are the chats':
 * each chat subscribes to them itself, and the banner leaves them alone.
 *
 * It reads the two snapshots by the parts it needs (TalksView, CallsView) rather than by their
 * machines' types: the banner imports this file, and the session that composes the banner
 * imports those machines, so naming them here would close an import cycle.
 */
import type { AnyActorRef } from 'xstate';
import type { CallInput } from '../call/call.types';

/** What is read of the talks' snapshot: the peer of the open talk, if any, and whether its code could not be loaded. */
interface TalksView { context: { peer: string | null }; matches(state: 'notLoaded'): boolean }
/** What is read of the calls' snapshot: what the call under way started with, if any. */
interface CallsView { context: { callInput: CallInput | null } }

/** The account of a call's peer, the one its chat is with. */
export const peerAccountOf = (input: CallInput): string => (input.direction === 'out' ? input.peer.account : input.signal.from);

export function openChatPeers(system: { get(systemId: string): AnyActorRef | undefined }): string[] {
  const talks: TalksView | undefined = system.get('talks')?.getSnapshot();
  const calls: CallsView | undefined = system.get('calls')?.getSnapshot();
  const callPeer = calls?.context.callInput ? peerAccountOf(calls.context.callInput) : null;
  const talkPeer = talks && !talks.matches('notLoaded') ? talks.context.peer : null;
  return [talkPeer, callPeer].filter((p): p is string => p !== null);
}
