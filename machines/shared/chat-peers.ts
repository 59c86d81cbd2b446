/**
 * The peers whose chat is open: the talk screen's (`talks`, from its opening) and the call's
 * (`calls`, from the loading of the call's code to its end). Their messages are the chats':
 * each chat subscribes to them itself, and the banner leaves them alone.
 */
import type { AnyActorRef } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { callPeerOf } from '../session/calls.types';
import type { CallsMachine } from '../session/calls.machine';
import type { TalksMachine } from '../talks/talks.machine';

export function openChatPeers(system: { get(systemId: string): AnyActorRef | undefined }): string[] {
  const talks: SnapshotFrom<TalksMachine> | undefined = system.get('talks')?.getSnapshot();
  const calls: SnapshotFrom<CallsMachine> | undefined = system.get('calls')?.getSnapshot();
  return [talks?.context.peer ?? null, calls ? callPeerOf(calls.context) : null].filter((p): p is string => p !== null);
}
