/**
 * Overlays of the signed-in session: the incoming-message banner (SPEC §2), the idle-host
 * dialog (SPEC §4 Idle host), and the strips of a link that is out of reach (the message service
 * reconnecting; presence having given up, PresenceStrip.tsx). Each binds to its own child actor.
 */
import { useSelector } from '@xstate/react';
import { CatchBoundary } from '@tanstack/react-router';
import { Suspense, useEffect } from 'react';
import {
  selectBanner, selectCallShown, selectCalls, selectIdleHost, selectImConnection, selectImOffline, selectPresence, selectSession,
} from '../../machines/session/session.selectors';
import type { BannerRef, IdleHostRef, ImConnectionRef } from '../../machines/session/session.selectors';
import { CloseIcon, MailIcon } from '../ui/icons';
import { CustomerServiceAvatar } from '../ui/CustomerServiceAvatar';
import { useAppActor } from './AppActorContext';
import { PresenceStrip } from './PresenceStrip';
import { loadCallCode, loadCallOverlay } from './call/callCode';
import { lazyComponent } from './lazyComponent';
import { RouteError } from './RouteError';
import { useServices } from './services';
import { warmLater } from './warmLater';

/**
 * The call screens are not in the app's first chunk, nor is the code of the session's talks,
 * calls and lives (call/callCode.ts): they are fetched once the session is idle, so that an
 * incoming call does not wait for them and a call started without a network can still say why
 * it did not start (SPEC §5), and at the latest with the first call, chat or live (warmLater.ts).
 * A screen with a call button fetches them sooner (`useWarmCall`).
 */
const CallOverlay = lazyComponent(loadCallOverlay);

function useWarmCallOverlay(active: boolean): void {
  const { warmCall } = useServices();
  useEffect(() => (active ? warmLater(() => loadCallCode(warmCall)) : undefined), [active, warmCall]);
}

export function SessionOverlays() {
  const app = useAppActor();
  const session = useSelector(app, selectSession);
  const banner = useSelector(session, selectBanner);
  const idleHost = useSelector(session, selectIdleHost);
  const connection = useSelector(session, selectImConnection);
  const presence = useSelector(session, selectPresence);
  const calls = useSelector(session, selectCalls);
  const callShown = useSelector(calls, selectCallShown);
  useWarmCallOverlay(Boolean(session));
  return (
    <>
      {session && callShown && (
        // Call screens whose code cannot be fetched say so here, with Try again; the rest stays.
        <CatchBoundary getResetKey={() => 'call'} errorComponent={RouteError}>
          <Suspense fallback={null}>
            <CallOverlay session={session} />
          </Suspense>
        </CatchBoundary>
      )}
      {connection && <OfflineStrip connection={connection} />}
      {presence && <PresenceStrip presence={presence} />}
      {banner && <IncomingBanner banner={banner} />}
      {idleHost && <IdleHostDialog idleHost={idleHost} />}
    </>
  );
}

/** Shown while the message service is out of reach (no network, server restarting). */
function OfflineStrip({ connection }: { connection: ImConnectionRef }) {
  const offline = useSelector(connection, selectImOffline);
  return (
    <div className="offline-strip" role="status" aria-live="polite" data-testid="offline-strip" hidden={!offline}>
      {offline && 'No connection. Reconnecting…'}
    </div>
  );
}

function IncomingBanner({ banner }: { banner: BannerRef }) {
  const item = useSelector(banner, (s) => (s.matches('showing') ? s.context.current : null));
  const customerService = useSelector(banner, (s) => s.context.customerServiceId);
  if (!item) return null;
  return (
    <div className="incoming-banner" role="status" aria-live="polite" data-testid="incoming-banner">
      <button type="button" className="incoming-banner-body" onClick={() => banner.send({ type: 'banner.tap' })}>
        {/* SPEC §2: the sender's avatar, or the fixed icon (system notices, a sender without one). */}
        {item.from !== '' && item.from === customerService ? <CustomerServiceAvatar size={40} />
          : item.avatar
          ? <img className="avatar" src={item.avatar} alt="" width={40} height={40} />
          : <span className="banner-icon" aria-hidden="true"><MailIcon /></span>}
        <span className="banner-text">
          <span className="banner-head">
            <span className="banner-nick">{item.nick}</span>
            <span className="muted">Just Now</span>
          </span>
          <span className="banner-preview" data-testid="banner-preview">{item.preview}</span>
        </span>
      </button>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => banner.send({ type: 'banner.dismiss' })}><CloseIcon /></button>
    </div>
  );
}

function IdleHostDialog({ idleHost }: { idleHost: IdleHostRef }) {
  const offline = useSelector(idleHost, (s) => s.matches('offline') || s.matches('settingOnline'));
  const busy = useSelector(idleHost, (s) => s.matches('settingOnline'));
  if (!offline) return null;
  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="alertdialog" aria-modal="true" aria-labelledby="idle-title" aria-describedby="idle-text">
        <h2 id="idle-title" className="dialog-title">You are offline</h2>
        <p id="idle-text" className="muted">You were inactive for a while, so you were set offline.</p>
        <button type="button" className="button-link button-primary button-block" disabled={busy} onClick={() => idleHost.send({ type: 'host.goOnline' })}>
          Go Online
        </button>
      </div>
    </div>
  );
}
