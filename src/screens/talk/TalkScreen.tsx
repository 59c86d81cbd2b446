import { useSearch } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { TEXT_CUSTOMER_SERVICE } from '../../../machines/conversations/conversations.selectors';
import { selectBanner, selectConversations, selectSession } from '../../../machines/session/session.selectors';
import { selectExtras } from '../../../machines/talk/talk.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { TalkConversation } from './TalkConversation';
import type { TalkRef } from './TalkExtras';

/**
 * The peer's name, as the chat looked it up, or as the chat list already knows it (so a chat
 * opened from News has it at once); customer service is Customer Service; null while none knows.
 */
function usePeerName(peer: string): string | null {
  const session = useSelector(useAppActor(), selectSession);
  const talk = useSelector(session, (s) => s?.children.talk as TalkRef | undefined);
  const extras = useSelector(talk, selectExtras);
  const lookedUp = useSelector(extras, (s) => (s?.context.peer === peer ? s.context.peerName?.trim() : undefined));
  const conversations = useSelector(session, selectConversations);
  const listed = useSelector(conversations, (s) => s?.context.profiles[peer]?.nickname.trim());
  const service = useSelector(useSelector(session, selectBanner), (s) => s?.context.customerServiceId === peer);
  return (service ? TEXT_CUSTOMER_SERVICE : null) || lookedUp || listed || null;
}

/** /talk?to=…&taPath=… (SPEC §2): the chat with the peer whose IM account is `to`, titled with the peer's name. */
export default function TalkScreen() {
  const search = useSearch({ strict: false }) as { to?: unknown };
  const peer = typeof search.to === 'string' ? search.to : '';
  const name = usePeerName(peer);
  return (
    <ScreenFrame title={name ?? 'Chat'} back className="talk-screen">
      {peer ? <TalkConversation peer={peer} /> : <p className="muted">No one to chat with.</p>}
    </ScreenFrame>
  );
}
