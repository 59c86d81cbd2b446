/**
 * The connected call (SPEC §2 in-call screen and the user's call screen): both videos (an audio
 * call: the peer's picture and name), a tap
 * on the screen toggling the overlay, and over them the top bar (timer; a host's call and gift
 * income; end call), the chat, and the gifts: a host asks for them, a user sees the price and
 * what is left, sends gifts and answers asks. Gifts received play one at a time.
 */
import { selectExtras } from '../../../machines/talk/talk.selectors';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import {
  formatElapsed, selectAskGift, selectGiftList, selectGiftQueue, selectGifting, selectInCall,
} from '../../../machines/call/call.selectors';
import type { CallRef, CallView } from '../../../machines/call/call.selectors';
import type { CallMediaView } from '../../../machines/ports/call.media';
import type { TalkRef } from '../../../machines/session/session.selectors';
import { useServices } from '../services';
import { ChatComposer, ChatHistory, ChatLines } from './CallChat';
import { GiftCard } from './GiftCard';
import { HostGifts } from './HostGifts';
import { CallWallet, IncomingAsk, UserGifts } from './UserGifts';
import { useNow } from './useNow';
import { useOpened } from './useOpened';

export function useStreams(media: CallMediaView | undefined) {
  const subscribe = (listener: () => void) => media?.subscribe(listener) ?? (() => {});
  const local = useSyncExternalStore(subscribe, () => media?.local() ?? null);
  const remote = useSyncExternalStore(subscribe, () => media?.remote() ?? null);
  return { local, remote };
}

export function Video({ stream, label, muted, className }: { stream: MediaStream | null; label: string; muted: boolean; className: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current && ref.current.srcObject !== stream) ref.current.srcObject = stream;
  }, [stream]);
  return <video ref={ref} className={className} aria-label={label} autoPlay playsInline muted={muted} />;
}

/** An audio call (SPEC §3 signalling action 10) has no video: the peer's picture and name instead. */
function AudioPeer({ view, name }: { view: CallView; name: string }) {
  return (
    <div className="call-audio">
      {view.peer.icon ? <img className="avatar call-avatar" src={view.peer.icon} alt="" width={96} height={96} /> : <span className="avatar call-avatar" aria-hidden="true" />}
      <p className="call-name">{name}</p>
      <p className="call-details">Audio call</p>
    </div>
  );
}

export function InCall({ call, view, chat }: { call: CallRef; view: CallView; chat: TalkRef | undefined }) {
  const { callMedia } = useServices();
  const { local } = useStreams(callMedia);
  const [overlay, setOverlay] = useState(true);
  const [history, setHistory] = useState(false);
  const historyOpened = useOpened(history);
  const now = useNow(true);
  const room = useSelector(call, selectInCall);
  const list = useSelector(room, selectGiftList);
  const queue = useSelector(room, selectGiftQueue);
  const ask = useSelector(room, selectAskGift);
  const gifting = useSelector(room, selectGifting);
  const callIncome = useSelector(room, (s) => s?.context.callIncome ?? 0);
  const giftIncome = useSelector(room, (s) => s?.context.giftIncome ?? 0);
  // The caller's name comes with the ring when it does; else the chat has looked it up.
  const chatExtras = useSelector(chat, selectExtras);
  const chatPeerName = useSelector(chatExtras, (s) => s?.context.peerName ?? null);
  const peerName = view.peer.nickname ?? chatPeerName ?? 'Them';
  return (
    <div className="call-live">
      {/* Their video is the call screen's (CallOverlay.tsx): it is there from connecting on. An audio call shows who it is with. */}
      {view.video ? <Video stream={local} label="Your video" muted className="call-local" /> : <AudioPeer view={view} name={peerName} />}
      {/* A tap on the screen toggles the overlay (SPEC §2 in-call screen). */}
      <button type="button" className="call-toggle" aria-label={overlay ? 'Hide controls' : 'Show controls'} onClick={() => setOverlay((v) => !v)} />
      {overlay && (
        <div className="call-overlay">
          <div className="call-top">
            <span className="call-timer" role="timer" aria-label="Call time">{formatElapsed(now - view.connectedAt)}</span>
            {view.isHost && (
              <>
                <span className="call-income" data-testid="call-income">{`Call income ${callIncome}`}</span>
                <span className="call-income" data-testid="gift-income">{`Gift income ${giftIncome}`}</span>
              </>
            )}
            <button type="button" className="call-button call-end" onClick={() => call.send({ type: 'call.hangup' })}>End call</button>
          </div>
          {gifting && <CallWallet view={view} gifting={gifting} />}
          <div className="call-bottom">
            <ChatLines call={call} chat={chat} connectedAt={view.connectedAt} peerName={peerName} />
            {ask && <HostGifts ask={ask} list={list} />}
            {gifting && <UserGifts gifting={gifting} list={list} />}
            <div className="call-chat-row">
              <button type="button" className="call-button call-secondary" aria-haspopup="dialog" onClick={() => setHistory(true)}>History</button>
              <ChatComposer chat={chat} />
            </div>
          </div>
          {historyOpened && <ChatHistory call={call} chat={chat} peerName={peerName} open={history} onClose={() => setHistory(false)} />}
        </div>
      )}
      {/* Shown with or without the overlay: the server's warning, a gift arriving, and an ask waiting for an answer. */}
      {view.warning && <p className="call-warning" role="alert">{view.warning}</p>}
      {queue && <GiftCard queue={queue} />}
      {gifting && <IncomingAsk gifting={gifting} />}
    </div>
  );
}
