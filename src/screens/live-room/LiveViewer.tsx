/**
 * /liveRoom as a viewer (SPEC §2; §4 viewing front status 1 loading, 2 live, 3 live end, 5
 * calling): the host's video full screen, and over it the room — host, follow, audience,
 * send rank, highlights, wishlist, chat, gifts and a private call while the host takes them.
 * Binds to the session's liveViewing actor; `onLeave` takes the viewer out of the room's screen.
 */
import { useSelector } from '@xstate/react';
import { LiveFrontStatus } from '../../../machines/live-viewing/live-viewing.types';
import { liveViewingViewOf, sameViewingView, selectViewingChat } from '../../../machines/live-viewing/live-viewing.selectors';
import type { LiveViewingRef, LiveViewingView } from '../../../machines/live-viewing/live-viewing.selectors';
import { useServices } from '../../app/services';
import { StreamVideo, useMediaStream } from '../../ui/StreamVideo';
import { Audience } from './Audience';
import { ChatComposer } from './LiveChat';
import { FollowButton, SendRank } from './RoomExtras';
import { RoomChat } from './RoomChat';
import { ViewerGifts } from './ViewerGifts';
import {
  TEXT_ENTERING_ROOM, TEXT_HOST_AWAY_WAIT, TEXT_HOST_IN_PRIVATE_CALL, TEXT_LIVE_ENDED, TEXT_VIDEO_LOST, TEXT_VIDEO_WAITING,
} from './texts';
import '../../app/call/call.css';
import './live-room.css';

export function LiveViewer({ viewing, onLeave }: { viewing: LiveViewingRef; onLeave: () => void }) {
  const view = useSelector(viewing, liveViewingViewOf, sameViewingView);
  const { liveMedia } = useServices();
  const remote = useMediaStream(liveMedia, 'remote');
  const inRoom = view.frontStatus === LiveFrontStatus.live || view.frontStatus === LiveFrontStatus.calling;
  return (
    <div className="live-room" data-testid="live-room" data-role="viewer" data-front-status={view.frontStatus} data-video={view.video}>
      <StreamVideo stream={inRoom ? remote : null} label={`${view.hostNickname || 'Host'}’s live video`} className="live-video" />
      {view.frontStatus === LiveFrontStatus.loading && <Entering viewing={viewing} view={view} onLeave={onLeave} />}
      {view.frontStatus === LiveFrontStatus.liveEnd && (
        <div className="live-cover" role="status">
          <p className="live-cover-title">{TEXT_LIVE_ENDED}</p>
          <button type="button" className="live-button live-primary" onClick={onLeave}>Leave</button>
        </div>
      )}
      {inRoom && <InRoom viewing={viewing} view={view} />}
    </div>
  );
}

function Entering({ viewing, view, onLeave }: { viewing: LiveViewingRef; view: LiveViewingView; onLeave: () => void }) {
  if (!view.failed) return <div className="live-cover" role="status"><span className="spinner" aria-hidden="true" />{TEXT_ENTERING_ROOM}</div>;
  return (
    <div className="live-cover">
      <p className="live-cover-title" role="alert">{view.notice}</p>
      <div className="live-cover-actions">
        <button type="button" className="live-button live-primary" onClick={() => viewing.send({ type: 'live.retry' })}>Try again</button>
        <button type="button" className="live-button" onClick={onLeave}>Leave</button>
      </div>
    </div>
  );
}

function InRoom({ viewing, view }: { viewing: LiveViewingRef; view: LiveViewingView }) {
  const chat = useSelector(viewing, selectViewingChat);
  const calling = view.frontStatus === LiveFrontStatus.calling;
  return (
    <div className="live-layer">
      <div className="live-top">
        <div className="live-host">
          {view.hostIcon ? <img className="avatar" src={view.hostIcon} alt="" width={36} height={36} /> : <span className="avatar live-host-avatar" aria-hidden="true" />}
          <span className="live-host-text">
            <span className="live-host-name">{view.hostNickname}</span>
            {view.title && <span className="live-title">{view.title}</span>}
          </span>
        </div>
        <FollowButton hostUserId={view.hostUserId} />
        {chat && <Audience chat={chat} canGag={false} />}
        <SendRank hostUserId={view.hostUserId} />
      </div>
      {calling && (
        <div className="live-away" role="status" data-testid="host-in-private-call">
          <p className="live-away-title">{TEXT_HOST_IN_PRIVATE_CALL}</p>
          <p className="live-away-text">{TEXT_HOST_AWAY_WAIT}</p>
        </div>
      )}
      {!calling && view.video === 'lost' && (
        <div className="live-away" role="alert">
          <p className="live-away-title">{TEXT_VIDEO_LOST}</p>
          <button type="button" className="live-button live-primary" onClick={() => viewing.send({ type: 'video.retry' })}>Retry video</button>
        </div>
      )}
      {!calling && (view.video === 'connecting' || view.video === 'waiting') && <p className="live-waiting" role="status">{TEXT_VIDEO_WAITING}</p>}
      {chat && <RoomChat chat={chat} hostUserId={view.hostUserId} />}
      <div className="live-bottom">
        {view.notice && <p className="live-notice" role="status" data-testid="live-notice">{view.notice}</p>}
        <div className="live-actions">
          {chat && <ChatComposer chat={chat} />}
          <ViewerGifts viewing={viewing} />
          {view.canCallHost && (
            <button type="button" className="live-button live-call" onClick={() => viewing.send({ type: 'live.privateCall', online: navigator.onLine })}>
              Private call
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
