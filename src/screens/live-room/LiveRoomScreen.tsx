/**
 * /liveRoom (SPEC §2): the host's own live while one runs, or the room of `?anchorId=<host
 * user id>` (home's live list) watched. Watching starts with the live rooms' `live.watch` while
 * no live runs and ends with the viewing actor's `live.leave` when the screen goes (back).
 */
import { useCanGoBack, useRouter, useSearch } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { selectSession } from '../../../machines/session/session.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { LiveHost } from './LiveHost';
import { LiveViewer } from './LiveViewer';
import { anchorIdOf, selectLastLive, selectLiveHosting, selectLiveIdle, selectLiveRooms, selectLiveViewing } from './liveRefs';
import type { LiveRoomsRef } from './liveRefs';
import { TEXT_ENTERING_ROOM } from './texts';
import './live-room.css';

function useLeaveScreen(): () => void {
  const router = useRouter();
  const canGoBack = useCanGoBack();
  return () => (canGoBack ? router.history.back() : void router.navigate({ to: '/' }));
}

export default function LiveRoomScreen() {
  const hostUserId = anchorIdOf(useSearch({ strict: false }));
  const app = useAppActor();
  const session = useSelector(app, selectSession);
  const live = useSelector(session, selectLiveRooms);
  const hosting = useSelector(live, selectLiveHosting);
  const lastLive = useSelector(live, selectLastLive);
  const router = useRouter();
  const leave = useLeaveScreen();
  if (hosting) {
    return (
      <ScreenFrame title="Live" className="live-screen">
        <LiveHost hosting={hosting} onEnded={() => void router.navigate({ to: '/liveEnds' })} onLeave={leave} />
      </ScreenFrame>
    );
  }
  if (live && hostUserId !== null) {
    return (
      <ScreenFrame title="Live room" back className="live-screen">
        <WatchRoom live={live} hostUserId={hostUserId} onLeave={leave} />
      </ScreenFrame>
    );
  }
  return (
    <ScreenFrame title="Live room" back>
      <div className="centered-panel" data-testid="live-room-none">
        <p className="muted">{lastLive?.code != null ? 'Your live has ended.' : 'There is no live room to show.'}</p>
        {lastLive?.code != null && (
          <button type="button" className="button-link button-primary" onClick={() => void router.navigate({ to: '/liveEnds' })}>See results</button>
        )}
      </div>
    </ScreenFrame>
  );
}

/**
 * Watches `hostUserId`'s room while shown: asks for it whenever no live runs (so a watch asked
 * while an earlier visit was still leaving is asked again once it has left) and leaves it
 * when the screen goes.
 */
function WatchRoom({ live, hostUserId, onLeave }: { live: LiveRoomsRef; hostUserId: number; onLeave: () => void }) {
  const viewing = useSelector(live, selectLiveViewing);
  const idle = useSelector(live, selectLiveIdle);
  // The room on show: this host's, and not an earlier visit on its way out.
  const watched = useSelector(viewing, (s) => (s && s.status === 'active' && !s.matches('leaving') ? s.context.hostUserId : null));
  useEffect(() => {
    if (idle) live.send({ type: 'live.watch', hostUserId });
  }, [live, idle, hostUserId]);
  useEffect(() => () => {
    const current = selectLiveViewing(live.getSnapshot());
    if (current?.getSnapshot().context.hostUserId === hostUserId) current.send({ type: 'live.leave' });
  }, [live, hostUserId]);
  if (!viewing || watched !== hostUserId) {
    return <div className="live-room" data-testid="live-room" data-role="viewer" data-front-status="1"><div className="live-cover" role="status">{TEXT_ENTERING_ROOM}</div></div>;
  }
  return <LiveViewer viewing={viewing} onLeave={onLeave} />;
}
