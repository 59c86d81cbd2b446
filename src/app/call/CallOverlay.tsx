/**
 * The call screens over everything (SPEC §2 host overlays and the user's call screens):
 * dialling with cancel, an incoming ring with accept and reject, connecting, the in-call
 * screen (InCall.tsx: videos, chat, gifts, a host's income, a user's price and balance), and
 * after the call its outcome with the rating. Loaded only when a call starts.
 */
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { callViewOf, formatElapsed, offersRecharge, sameView } from '../../../machines/call/call.selectors';
import type { CallRef, CallView } from '../../../machines/call/call.selectors';
import { CallStatus } from '../../../machines/call/call.machine';
import type { CallSummary } from '../../../machines/call/call.machine';
import type { SessionRef, TalkRef } from '../../../machines/session/session.selectors';
import { selectCall, selectCallChat, selectCalls, selectLastCall } from '../../../machines/session/session.selectors';
import { Link } from '@tanstack/react-router';
import { TEXT_CALL_END_BALANCE, callRate } from '../../api/contract/call';
import { RECHARGE_PATH } from '../recharge';
import { StarIcon } from '../../ui/icons';
import { useServices } from '../services';
import { PriceBeforeCall } from './CallPrice';
import { InCall, Video, useStreams } from './InCall';
import { Ringtone } from './Ringtone';
import './call.css';

export default function CallOverlay({ session }: { session: SessionRef }) {
  // The calls child's snapshot changes without the session's: this binds to the calls child itself.
  const calls = useSelector(session, selectCalls);
  const call = useSelector(calls, selectCall);
  const chat = useSelector(calls, selectCallChat);
  const lastCall = useSelector(calls, selectLastCall);
  const isHost = useSelector(session, (s) => s.context.isHost);
  if (call) return <LiveCall call={call} chat={chat} />;
  if (lastCall) return <CallEnded summary={lastCall} isHost={isHost} onClose={() => session.send({ type: 'call.dismiss' })} />;
  return null;
}

/**
 * The peer's video from the moment media flows (connecting) through the call: one element, so
 * it is already showing frames when the call counts as connected (a new element would start
 * its own decoding then). Video only: the media adapter plays the peer's sound itself.
 */
function TheirVideo() {
  const { remote } = useStreams(useServices().callMedia);
  return <Video stream={remote} label="Their video" muted className="call-remote" />;
}

function LiveCall({ call, chat }: { call: CallRef; chat: TalkRef | undefined }) {
  const view = useSelector(call, callViewOf, sameView);
  return (
    <div className="call-screen" role="dialog" aria-modal="true" aria-label="Call" data-phase={view.phase}>
      {view.video && (view.phase === 'connecting' || view.phase === 'connected') && <TheirVideo />}
      {view.phase === 'connected' ? <InCall call={call} view={view} chat={chat} /> : <BeforeConnected call={call} view={view} />}
    </div>
  );
}

function PeerCard({ view }: { view: CallView }) {
  const { peer } = view;
  const details = [peer.age ? `${peer.age}` : null, peer.countryCode ?? null, peer.levelName ?? null].filter(Boolean).join(' · ');
  return (
    <div className="call-peer">
      {peer.icon ? <img className="avatar call-avatar" src={peer.icon} alt="" width={96} height={96} /> : <span className="avatar call-avatar" aria-hidden="true" />}
      <h2 className="call-name">{peer.nickname ?? peer.account}</h2>
      {details && <p className="call-details">{details}</p>}
    </div>
  );
}

function BeforeConnected({ call, view }: { call: CallRef; view: CallView }) {
  return (
    <div className="call-before">
      <PeerCard view={view} />
      <p className="call-state" role="status">
        {view.phase === 'dialling' && (view.video ? 'Calling…' : 'Calling (audio)…')}
        {view.phase === 'ringing' && (view.video ? 'Incoming video call' : 'Incoming audio call')}
        {view.phase === 'connecting' && 'Connecting…'}
        {view.phase === 'ending' && 'Call ended'}
      </p>
      {view.pays && (view.phase === 'ringing' || view.phase === 'dialling') && <PriceBeforeCall view={view} />}
      {view.tone && <Ringtone />}
      <div className="call-actions">
        {view.phase === 'dialling' && (
          <button type="button" className="call-button call-end" onClick={() => call.send({ type: 'call.cancel' })}>Cancel</button>
        )}
        {view.phase === 'ringing' && (
          <>
            <button type="button" className="call-button call-end" onClick={() => call.send({ type: 'call.reject' })}>Reject</button>
            <button type="button" className="call-button call-accept" disabled={!view.canAccept} onClick={() => call.send({ type: 'call.accept' })}>Accept</button>
          </>
        )}
        {view.phase === 'connecting' && (
          <button type="button" className="call-button call-end" onClick={() => call.send({ type: 'call.hangup' })}>Hang up</button>
        )}
      </div>
    </div>
  );
}

const STATUS_TEXT: Partial<Record<number, string>> = {
  [CallStatus.timeout]: 'No answer',
  [CallStatus.cancel]: 'Call cancelled',
  [CallStatus.hungUp]: 'Call ended',
};

function CallEnded({ summary, isHost, onClose }: { summary: CallSummary; isHost: boolean; onClose: () => void }) {
  const { api } = useServices();
  const [category, setCategory] = useState(0);
  const [abnormal, setAbnormal] = useState(false);
  const [sent, setSent] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const canRate = summary.answerTime > 0 && summary.channelId !== null;
  const rate = async () => {
    if (!summary.channelId || category === 0 || sent === 'sending' || sent === 'sent') return;
    setSent('sending');
    try {
      await api.data(callRate, {
        channelId: summary.channelId, callType: summary.callType, category, answerTime: summary.answerTime,
        userType: isHost ? 2 : 1, abnormal: abnormal ? 1 : 0,
      });
      setSent('sent');
    } catch {
      setSent('failed');
    }
  };
  return (
    <div className="call-screen" role="dialog" aria-modal="true" aria-label="Call ended">
      <div className="call-before">
        <h2 className="call-name">{summary.peer.nickname ?? summary.peer.account}</h2>
        <p className="call-state" role="status">{summary.text ?? STATUS_TEXT[summary.status] ?? 'Call ended'}</p>
        {offersRecharge(summary, isHost, TEXT_CALL_END_BALANCE) && (
          <Link to={RECHARGE_PATH} className="button-link button-primary" onClick={onClose}>Recharge</Link>
        )}
        {summary.answerTime > 0 && <p className="call-details">{`Duration ${formatElapsed(summary.answerTime * 1000)}`}</p>}
        {canRate && sent !== 'sent' && (
          <fieldset className="call-rating">
            <legend>Rate this call</legend>
            <div className="call-stars">
              {[1, 2, 3, 4, 5].map((n) => (
                <button key={n} type="button" className="icon-button" aria-pressed={category === n} aria-label={`${n} star${n > 1 ? 's' : ''}`} onClick={() => setCategory(n)}>
                  <StarIcon filled={n <= category} />
                </button>
              ))}
            </div>
            <label className="call-abnormal">
              <input type="checkbox" checked={abnormal} onChange={(e) => setAbnormal(e.target.checked)} />
              Something went wrong
            </label>
            <button type="button" className="button-link button-primary" disabled={category === 0 || sent === 'sending'} onClick={() => void rate()}>
              Send rating
            </button>
            {sent === 'failed' && <p className="form-error" role="alert">The rating could not be sent. Please try again.</p>}
          </fieldset>
        )}
        {sent === 'sent' && <p className="call-details" role="status">Thank you for rating.</p>}
        <button type="button" className="button-link" onClick={onClose}>Close</button>
      </div>
    </div>
  );
}
