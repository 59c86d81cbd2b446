import { useSearch } from '@tanstack/react-router';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { TalkConversation } from './TalkConversation';

/** /talk?to=…&taPath=… (SPEC §2): the chat with the peer whose IM account is `to`. */
export default function TalkScreen() {
  const search = useSearch({ strict: false }) as { to?: unknown };
  const peer = typeof search.to === 'string' ? search.to : '';
  return (
    <ScreenFrame title={peer ? `Chat with ${peer}` : 'Chat'} back>
      {peer ? <TalkConversation peer={peer} /> : <p className="muted">No one to chat with.</p>}
    </ScreenFrame>
  );
}
