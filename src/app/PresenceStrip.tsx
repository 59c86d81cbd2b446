/**
 * Presence gave up reconnecting (SPEC §4 Presence, §9: 720 tries 5 s apart): the person is told
 * in SPEC §8's words, 'Failed to connect WebSocket after retries', with Try again, which starts
 * the tries over (`presence.retry`). Until then the others do not see them online.
 */
import { useSelector } from '@xstate/react';
import { TEXT_GAVE_UP } from '../../machines/presence/presence.machine';
import { selectPresenceGaveUp } from '../../machines/presence/presence.selectors';
import type { PresenceRef } from '../../machines/session/session.selectors';
import './presence-strip.css';

export function PresenceStrip({ presence }: { presence: PresenceRef }) {
  const gaveUp = useSelector(presence, selectPresenceGaveUp);
  if (!gaveUp) return null;
  return (
    <div className="presence-strip" role="alert" data-testid="presence-gave-up">
      <span className="presence-strip-text">{TEXT_GAVE_UP}</span>
      <button type="button" className="presence-strip-retry" onClick={() => presence.send({ type: 'presence.retry' })}>
        Try again
      </button>
    </div>
  );
}
