/**
 * The frame around every route: splash while the session settles, cached views, the outlet and
 * the tab bar. The app's settings load for the session once signed in, and by the app id alone on
 * the pages without a session (login, register, landing: SPEC §7 base config "or by app id").
 */
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { isPublicPath } from '../../machines/app/app.paths';
import {
  selectMode, selectPhase, selectProfile, selectUnread,
} from '../../machines/app/app.selectors';
import { ProfileFailed } from './ProfileFailed';
import { Splash } from '../ui/Splash';
import { TabBar, isTabRoot } from '../ui/TabBar';
import { useAppActor } from './AppActorContext';
import { BaseConfigGate } from './BaseConfigGate';
import { KeepAlive } from './KeepAlive';
import { SessionOverlays } from './SessionOverlays';
import { isCachedPath } from './screens';

export function RootLayout() {
  const app = useAppActor();
  const phase = useSelector(app, selectPhase);
  const mode = useSelector(app, selectMode);
  const unread = useSelector(app, selectUnread);
  const userId = useSelector(app, (s) => selectProfile(s)?.userId ?? null);
  const pathname = useRouterState({ select: (s) => s.location.pathname });

  if (phase === 'starting') return <div className="app-column"><Splash /></div>;
  if (phase === 'failed') return <div className="app-column"><ProfileFailed /></div>;

  return (
    <div className="app-column" data-session={phase} data-mode={mode ?? 'none'}>
      <main className="app-main">
        {phase === 'signedIn' ? (
          <BaseConfigGate key={userId}>
            <KeepAlive pathname={pathname} />
            {!isCachedPath(pathname) && <Outlet />}
          </BaseConfigGate>
        ) : phase === 'signedOut' && isPublicPath(pathname) ? (
          <BaseConfigGate source="appId"><Outlet /></BaseConfigGate>
        ) : <Outlet />}
      </main>
      {mode && isTabRoot(pathname) && <TabBar mode={mode} pathname={pathname} unread={unread} />}
      {phase === 'signedIn' && <SessionOverlays />}
    </div>
  );
}
