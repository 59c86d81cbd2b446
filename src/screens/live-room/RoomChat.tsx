/**
 * What host and viewers both see over the video while the room's chat runs: entering-room
 * highlights, the wishlist's progress, the chat lines and the one-at-a-time gift animation
 * (SPEC §4 gift animation queue; §9 hidden after 5 s; a still card with reduced motion).
 */
import { useSelector } from '@xstate/react';
import { selectLiveGiftQueue } from '../../../machines/live-chat/live-chat.selectors';
import type { LiveChatRef } from '../../../machines/live-chat/live-chat.selectors';
import { GiftCard } from '../../app/call/GiftCard';
import { Highlights } from './Highlights';
import { ChatLines } from './LiveChat';
import { Wishlist } from './RoomExtras';

export function RoomChat({ chat, hostUserId }: { chat: LiveChatRef; hostUserId: number | null }) {
  const queue = useSelector(chat, selectLiveGiftQueue);
  const phase = useSelector(chat, (s) => (s.matches('ready') ? 'ready' : s.matches('failed') ? 'failed' : s.status === 'active' ? 'entering' : 'closed'));
  return (
    <>
      <div className="live-middle" data-chat-phase={phase}>
        <Wishlist chat={chat} hostUserId={hostUserId} />
        <Highlights chat={chat} />
        <ChatLines chat={chat} />
      </div>
      {queue && <GiftCard queue={queue} />}
    </>
  );
}

/** The number of gifts that reached the room (refreshes the host's gift task). */
export function useGiftsReceived(chat: LiveChatRef | undefined): number {
  const queue = useSelector(chat, selectLiveGiftQueue);
  return useSelector(queue, (s) => s?.context.received ?? 0);
}
