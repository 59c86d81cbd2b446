/**
 * The signed-in person's follower and following counts on Mine (SPEC §4 system message -4
 * "increments follower count"), each a link to its /followList tab. Bound to a followCounts
 * actor: loaded when shown, one up for each -4 the root actor emits while it is shown, and
 * loaded again when shown anew (Mine is a cached view; a follow while hidden is counted then).
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../ui/useScreenActor';
import { useEffect, useMemo } from 'react';
import { composeFollowCounts } from '../../../machines/people/people.actors';
import { selectCounts } from '../../../machines/people/people.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { useServices } from '../../compose/services';
import { peoplePortOf } from '../../compose/people';
import './follow-list.css';

export function FollowCounts({ userId }: { userId: number }) {
  const app = useAppActor();
  const { api, upload } = useServices();
  const logic = useMemo(() => composeFollowCounts(peoplePortOf({ api, upload }, userId)), [api, upload, userId]);
  const counts = useScreenActor(logic);
  const value = useSelector(counts, selectCounts);

  useEffect(() => {
    counts.send({ type: 'counts.reload' });
    const sub = app.on('followerAdded', () => counts.send({ type: 'follower.added' }));
    return () => sub.unsubscribe();
  }, [app, counts]);

  const show = (n: number | undefined) => (n === undefined ? '–' : String(n));
  return (
    <ul className="follow-counts" aria-label="Follows" data-testid="follow-counts">
      <li>
        <Link to="/followList" search={{ type: 'followers' }} className="follow-count" aria-label={`${show(value?.followerCount)} followers`}>
          <span className="follow-count-number">{show(value?.followerCount)}</span>
          <span className="follow-count-label">Followers</span>
        </Link>
      </li>
      <li>
        <Link to="/followList" className="follow-count" aria-label={`${show(value?.followingCount)} following`}>
          <span className="follow-count-number">{show(value?.followingCount)}</span>
          <span className="follow-count-label">Following</span>
        </Link>
      </li>
    </ul>
  );
}
