import { useSearch } from '@tanstack/react-router';
import { ScreenFrame } from '../../ui/ScreenFrame';

/** Peer chat with `to` (the peer's account id) and `taPath` from the query (SPEC §2). */
export default function TalkScreen() {
  const search = useSearch({ strict: false }) as { to?: string };
  return <ScreenFrame title={search.to ? `Chat with ${search.to}` : 'Chat'} back />;
}
