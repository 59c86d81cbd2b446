/**
 * Entering-room highlights (SPEC §6 only for userLevel above 0; §9 2 s each, the next 1.2 s
 * after the one before): exactly those the highlights machine has on show. They slide in, or
 * simply appear when motion is reduced (the stylesheet).
 */
import { useSelector } from '@xstate/react';
import { highlightsOf, selectHighlights } from '../../../machines/live-chat/live-chat.selectors';
import type { EnterHighlightsRef, LiveChatRef } from '../../../machines/live-chat/live-chat.selectors';
import type { QueuedHighlight } from '../../../machines/live-chat/enter-highlights.machine';
import { UserBadges } from '../../ui/UserBadges';

const sameShown = (a: QueuedHighlight[], b: QueuedHighlight[]) => a.length === b.length && a.every((h, i) => h.seq === b[i]!.seq);

export function Highlights({ chat }: { chat: LiveChatRef }) {
  const highlights = useSelector(chat, selectHighlights);
  return highlights ? <Shown highlights={highlights} /> : null;
}

function Shown({ highlights }: { highlights: EnterHighlightsRef }) {
  const shown = useSelector(highlights, highlightsOf, sameShown);
  return (
    <ul className="live-highlights" aria-label="Entering the room" aria-live="polite">
      {shown.map((h) => (
        <li key={h.seq} className="live-highlight" data-testid="enter-highlight" data-account={h.account}>
          <UserBadges isVip={h.isVip} isNewUser={false} userLevel={h.userLevel} />
          <span className="live-highlight-text">{`${h.nick} entered the room`}</span>
        </li>
      ))}
    </ul>
  );
}
