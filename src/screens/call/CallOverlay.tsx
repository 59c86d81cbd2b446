/**
 * The call screens over everything (SPEC §2 host overlays and the user's call screens):
 * dialling with cancel, an incoming ring with accept and reject, connecting, the in-call
 * screen (InCall.tsx: videos, chat, gifts, a host's income, a user's price and balance), and
 * after the call its outcome with the rating. Loaded only when a call starts.
 */
import { useSelector } from '@xstate/react';
import {
  callViewOf, formatElapsed, offersRecharge, sameView, selectRatingAbnormal, selectRatingPhase, selectRatingStars,
} from '../../../machines/call/call.selectors';
import type { CallRatingRef, CallRef, CallView } from '../../../machines/call/call.selectors';
import { CallStatus } from '../../../machines/codes/call.codes';
import type { CallSummary } from '../../../machines/call/call.machine';
import type { SessionRef, TalkRef } from '../../../machines/session/session.selectors';
import { selectCall, selectCallChat, selectCallRating, selectCalls, selectLastCall } from '../../../machines/session/session.selectors';
import { Link } from '@tanstack/react-router';
import { TEXT_CALL_END_BALANCE } from '../../api/contract/call';
import { RECHARGE_PATH } from '../../app/recharge';
import { StarIcon } from '../../ui/icons';
import { useServices } from '../../compose/services';
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
  const rating = useSelector(calls, selectCallRating);
  const isHost = useSelector(session, (s) => s.context.isHost);
  if (call) return <LiveCall call={call} chat={chat} />;
  if (lastCall) {
    return <CallEnded key={lastCall.channelId ?? ''} summary={lastCall} isHost={isHost} rating={rating} onClose={() => calls?.send({ type: 'call.dismiss' })} />;
  }
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

function CallEnded({ summary, isHost, rating, onClose }: { summary: CallSummary; isHost: boolean; rating: CallRatingRef | undefined; onClose: () => void }) {
  return (
    <div className="call-screen" role="dialog" aria-modal="true" aria-label="Call ended">
      <div className="call-before">
        <h2 className="call-name">{summary.peer.nickname ?? summary.peer.account}</h2>
        <p className="call-state" role="status">{summary.text ?? STATUS_TEXT[summary.status] ?? 'Call ended'}</p>
        {offersRecharge(summary, isHost, TEXT_CALL_END_BALANCE) && (
          <Link to={RECHARGE_PATH} className="button-link button-primary" onClick={onClose}>Recharge</Link>
        )}
        {summary.answerTime > 0 && <p className="call-details">{`Duration ${formatElapsed(summary.answerTime * 1000)}`}</p>}
        {rating && <Rating rating={rating} />}
        <button type="button" className="button-link" onClick={onClose}>Close</button>
      </div>
    </div>
  );
}

/** The stars of a call that took place, bound to the calls' rating of it (calls.machine.ts `idle.ended.rating`). */
function Rating({ rating }: { rating: CallRatingRef }) {
  const phase = useSelector(rating, selectRatingPhase);
  const category = useSelector(rating, selectRatingStars);
  const abnormal = useSelector(rating, selectRatingAbnormal);
  if (phase === 'sent') return <p className="call-details" role="status">Thank you for rating.</p>;
  return (
    <fieldset className="call-rating">
      <legend>Rate this call</legend>
      <div className="call-stars">
        {[1, 2, 3, 4, 5].map((n) => (
          <button key={n} type="button" className="icon-button" aria-pressed={category === n} aria-label={`${n} star${n > 1 ? 's' : ''}`} onClick={() => rating.send({ type: 'rating.choose', category: n })}>
            <StarIcon filled={n <= category} />
          </button>
        ))}
      </div>
      <label className="call-abnormal">
        <input type="checkbox" checked={abnormal} onChange={(e) => rating.send({ type: 'rating.setAbnormal', abnormal: e.target.checked })} />
        Something went wrong
      </label>
      <button type="button" className="button-link button-primary" disabled={category === 0 || phase === 'sending'} onClick={() => rating.send({ type: 'rating.send' })}>
        Send rating
      </button>
      {phase === 'failed' && <p className="form-error" role="alert">The rating could not be sent. Please try again.</p>}
    </fieldset>
  );
}
