/**
 * The match (SPEC §2 / match, "as the server's data allows"): a host who is online now, picked
 * at random from the online list in the chosen country, with their profile, a chat and the next
 * one. A modal dialog: Escape and Close end it, and focus moves into it.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef } from 'react';
import type { HomeListRef } from '../../../machines/home-list/home-list.machine';
import { selectMatch, selectMatchError, selectMatchPhase } from '../../../machines/home-list/home-list.selectors';
import { ListMessage } from '../../ui/ListMessage';

export function MatchDialog({ home }: { home: HomeListRef }) {
  const phase = useSelector(home, selectMatchPhase);
  const match = useSelector(home, selectMatch);
  const error = useSelector(home, selectMatchError);
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const open = phase !== 'closed';
  useEffect(() => {
    if (open) dialog.current?.focus();
  }, [open]);
  if (!open) return null;
  const close = () => home.send({ type: 'match.close' });
  return (
    <div className="dialog-backdrop" onKeyDown={(e) => e.key === 'Escape' && close()}>
      <div ref={dialog} tabIndex={-1} className="dialog match-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} data-phase={phase}>
        <h2 id={titleId} className="dialog-title">Match</h2>
        {phase === 'searching' && <ListMessage busy>Finding someone online…</ListMessage>}
        {phase === 'none' && <ListMessage>No host is online right now. Try again in a moment.</ListMessage>}
        {phase === 'failed' && <p role="alert" className="list-message-error">{error}</p>}
        {phase === 'found' && match && (
          <div className="match-card">
            <img className="avatar" src={match.cover} alt="" width={96} height={96} />
            <p className="profile-name">{match.nickname}</p>
            <p className="muted">
              {[match.age, match.countryName].filter((x) => x !== null).join(' · ')} · {match.videoPrice}/min
            </p>
            <div className="match-actions">
              <Link to="/userProfile" search={{ userId: String(match.userId) }} className="button-link button-primary" onClick={close}>
                View profile
              </Link>
              <Link to="/talk" search={{ to: match.yxAccid, taPath: 'match' }} className="button-link" onClick={close}>Chat</Link>
            </div>
          </div>
        )}
        <div className="match-actions">
          <button type="button" className="button-link" onClick={() => home.send({ type: 'match.next' })} disabled={phase === 'searching'}>
            {phase === 'found' ? 'Next' : 'Try again'}
          </button>
          <button type="button" className="text-button" onClick={close}>Close</button>
        </div>
      </div>
    </div>
  );
}
