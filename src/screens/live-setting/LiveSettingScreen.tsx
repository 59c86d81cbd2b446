/**
 * /liveSetting (SPEC §2): the host sets up a live and goes live. Go live is the session's
 * `live.begin`; once the camera is on air the live asks for /liveRoom itself.
 */
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectSession } from '../../../machines/session/session.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { selectLastLive, selectLiveHosting, selectLiveRooms } from '../live-room/liveRefs';
import { LiveSettingForm } from './LiveSettingForm';

export default function LiveSettingScreen() {
  const app = useAppActor();
  const session = useSelector(app, selectSession);
  const live = useSelector(session, selectLiveRooms);
  const hosting = useSelector(live, selectLiveHosting);
  const lastLive = useSelector(live, selectLastLive);
  const router = useRouter();
  return (
    <ScreenFrame title="Go live" back>
      <LiveSettingForm
        hosting={hosting}
        lastLive={lastLive}
        onGoLive={(setting) => live?.send({ type: 'live.begin', setting })}
        onOpenRoom={() => void router.navigate({ to: '/liveRoom' })}
      />
    </ScreenFrame>
  );
}
