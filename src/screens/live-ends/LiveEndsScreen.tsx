/**
 * /liveEnds (SPEC §2): the figures of the host's live that just ended, from the session's
 * summary of it; after a reload (no summary) the server's stats of the latest live, or an
 * empty state when there has been none. Back to home lets the summary go (`live.dismiss`).
 * Hosts only (app.paths.ts HOST_ONLY_PATHS).
 */
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectSession } from '../../../machines/session/session.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { selectLastLive, selectLiveRooms } from '../live-room/liveRefs';
import { LiveEndsView } from './LiveEndsView';

export default function LiveEndsScreen() {
  const app = useAppActor();
  const session = useSelector(app, selectSession);
  const live = useSelector(session, selectLiveRooms);
  const lastLive = useSelector(live, selectLastLive);
  const router = useRouter();
  // A refused go-live (code null) has no figures of its own: the server's latest live stands in.
  const summary = lastLive?.code != null ? lastLive : null;
  return (
    <ScreenFrame title="Live ended" back>
      <LiveEndsView
        summary={summary}
        onHome={() => {
          live?.send({ type: 'live.dismiss' });
          void router.navigate({ to: '/', replace: true });
        }}
        onGoLive={() => void router.navigate({ to: '/liveSetting' })}
      />
    </ScreenFrame>
  );
}
