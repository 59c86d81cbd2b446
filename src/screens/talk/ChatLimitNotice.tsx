/**
 * The non-paid user quota's notice (SPEC §4 Recharge): today's limit of people is reached and
 * the peer is someone new, so a text to them is not sent (it stays in the field); Recharge lifts it.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { TEXT_CHAT_LIMIT } from '../../../machines/talk/chat-quota';
import { selectChatLimitReached } from '../../../machines/talk/talk.selectors';
import { RECHARGE_PATH } from '../../app/recharge';
import type { TalkRef } from './TalkExtras';

export function ChatLimitNotice({ talk }: { talk: TalkRef }) {
  const reached = useSelector(talk, selectChatLimitReached);
  if (!reached) return null;
  return (
    <div className="talk-limit" role="status" data-testid="chat-limit">
      <p className="talk-limit-text">{TEXT_CHAT_LIMIT}</p>
      <Link to={RECHARGE_PATH} className="button-link button-primary">Recharge</Link>
    </div>
  );
}
