/**
 * /liveRoom as the host (SPEC §2; §4 Live state living / liveCalling / waitingReturnLive and
 * system messages 63/64): the own camera full screen, and over it
 * the live state, boosting exposure, the private-call switch, the audience (gag and ungag),
 * send rank, the live gift task, wishlist progress, the chat and End live. Binds to the
 * session's liveHosting actor; `onEnded` goes on to /liveEnds once the live is over. The §9
 * live call warning (300 s) is the session's toast: the host is on the call screen then.
 */
import { useSelector } from '@xstate/react';
import { liveHostingViewOf, sameHostingView, selectHostingChat } from '../../../machines/live-hosting/live-hosting.selectors';
import type { LiveHostingRef, LiveHostingView } from '../../../machines/live-hosting/live-hosting.selectors';
import { useServices } from '../../app/services';
import { StreamVideo, useMediaStream } from '../../ui/StreamVideo';
import { Audience } from './Audience';
import { EndLive, PrivateCallSwitch } from './HostControls';
import { ChatComposer } from './LiveChat';
import { GiftTask, SendRank } from './RoomExtras';
import { RoomChat, useGiftsReceived } from './RoomChat';
import { LIVE_STATE_TEXT, TEXT_BOOSTING, TEXT_ENDING_LIVE, TEXT_GOING_LIVE, TEXT_LIVE_OVER } from './texts';
import '../../app/call/call.css';
import './live-room.css';

export function LiveHost({ hosting, onEnded, onLeave }: { hosting: LiveHostingRef; onEnded: () => void; onLeave: () => void }) {
  const view = useSelector(hosting, liveHostingViewOf, sameHostingView);
  const { liveMedia } = useServices();
  const local = useMediaStream(liveMedia, 'local');
  return (
    <div
      className="live-room"
      data-testid="live-room"
      data-role="host"
      data-phase={view.phase}
      data-live-state={view.liveState}
      data-boosting={view.boosting ? 'true' : 'false'}
    >
      <StreamVideo stream={local} label="Your camera" className="live-video live-video-own" />
      {(view.phase === 'starting' || view.phase === 'publishing') && (
        <div className="live-cover" role="status"><span className="spinner" aria-hidden="true" />{TEXT_GOING_LIVE}</div>
      )}
      {view.phase === 'failed' && (
        <div className="live-cover">
          <p className="live-cover-title" role="alert">{view.failure}</p>
          <button type="button" className="live-button live-primary" onClick={onLeave}>Back</button>
        </div>
      )}
      {view.phase === 'ending' && <div className="live-cover" role="status"><span className="spinner" aria-hidden="true" />{TEXT_ENDING_LIVE}</div>}
      {view.phase === 'ended' && (
        <div className="live-cover" role="status">
          <p className="live-cover-title">{TEXT_LIVE_OVER}</p>
          <button type="button" className="live-button live-primary" onClick={onEnded}>See results</button>
        </div>
      )}
      {view.phase === 'onAir' && <OnAir hosting={hosting} view={view} />}
    </div>
  );
}

function OnAir({ hosting, view }: { hosting: LiveHostingRef; view: LiveHostingView }) {
  const chat = useSelector(hosting, selectHostingChat);
  const hostUserId = useSelector(hosting, (s) => s.context.room?.userId ?? 0);
  const received = useGiftsReceived(chat);
  return (
    <div className="live-layer">
      <div className="live-top">
        <span className="live-state" role="status" data-testid="live-state">{LIVE_STATE_TEXT[view.liveState]}</span>
        {view.title && <span className="live-title live-title-own">{view.title}</span>}
        {view.boosting && <span className="live-boost" data-testid="boosting">{TEXT_BOOSTING}</span>}
        {chat && <Audience chat={chat} canGag />}
        {hostUserId > 0 && <SendRank hostUserId={hostUserId} />}
        <EndLive hosting={hosting} />
      </div>
      <div className="live-host-row">
        <PrivateCallSwitch hosting={hosting} view={view} />
        <GiftTask fallback={view.giftTask} refresh={received} />
      </div>
      {chat && <RoomChat chat={chat} hostUserId={null} />}
      <div className="live-bottom">
        <div className="live-actions">{chat && <ChatComposer chat={chat} />}</div>
      </div>
    </div>
  );
}
