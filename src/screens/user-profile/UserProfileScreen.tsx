/**
 * /userProfile?userId=… or ?yxAccid=… (SPEC §2; §3 User profile): another person's photos and
 * videos, level, country, online status and counts, with Follow, Block, Chat (→ /talk with
 * taPath=profile) and Call, bound to a userProfile actor. Who may call whom: a user calls a
 * host; a host calls a user when the prime switch and the host's level allow it (SPEC §5).
 * A host who is live now (the server's `living`) is said to be, with a button to the room.
 * One's own profile links to /profile instead. Everything the person wrote is shown as text.
 */
import { Link, useSearch } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../ui/useScreenActor';
import { useMemo } from 'react';
import { selectProfile } from '../../../machines/app/app.selectors';
import { hostMayCall } from '../../../machines/base-config/base-config.machine';
import { composeUserProfile } from '../../../machines/people/people.actors';
import type { ProfileDetail, ProfileTarget } from '../../../machines/people/people.port';
import {
  selectBlocked, selectDetail, selectFollowed, selectFollowerCount, selectProfileError, selectProfilePhase, selectRelation,
  selectRelationError, selectSavingBlock, selectSavingFollow,
} from '../../../machines/people/people.selectors';
import type { FollowRef } from '../../../machines/people/people.selectors';
import { selectSession } from '../../../machines/session/session.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { useAppSettings } from '../../app/BaseConfigGate';
import { useWarmCall } from '../call/callCode';
import { useIsVisitor } from '../../app/VisitorPrompt';
import { useServices } from '../../compose/services';
import { ListMessage } from '../../ui/ListMessage';
import { LiveButton } from '../../ui/LiveButton';
import { MediaGrid } from '../../ui/MediaGrid';
import { STATUS_LABEL } from '../../ui/person';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { peoplePortOf } from '../../compose/people';
import { startCall } from './startCall';
import { AudioCallButton } from '../../ui/CallButtons';
import { VisitorActions } from './VisitorActions';
import './user-profile.css';
import { CallType } from '../../../machines/codes/call.codes';
import { UserType, isHostType } from '../../../machines/codes/user.codes';

/** The person the search names: a positive user id, else an IM account, else nobody. */
export function targetOf(search: { userId?: unknown; yxAccid?: unknown }): ProfileTarget | null {
  const id = Number(search.userId);
  if (Number.isSafeInteger(id) && id > 0) return { userId: id };
  if (typeof search.yxAccid === 'string' && search.yxAccid.trim()) return { yxAccid: search.yxAccid.trim() };
  return null;
}

export default function UserProfileScreen() {
  const target = targetOf(useSearch({ strict: false }) as { userId?: unknown; yxAccid?: unknown });
  return (
    <ScreenFrame title="Profile" back>
      {target ? <ProfileOf key={JSON.stringify(target)} target={target} /> : <ListMessage>No one to show.</ListMessage>}
    </ScreenFrame>
  );
}

function ProfileOf({ target }: { target: ProfileTarget }) {
  const { api, upload } = useServices();
  const me = useSelector(useAppActor(), selectProfile);
  const logic = useMemo(() => composeUserProfile(peoplePortOf({ api, upload }, me?.userId ?? 0)), [api, upload, me?.userId]);
  const profile = useScreenActor(logic, { input: { target } });
  const phase = useSelector(profile, selectProfilePhase);
  const detail = useSelector(profile, selectDetail);
  const error = useSelector(profile, selectProfileError);
  const relation = useSelector(profile, selectRelation);
  if (phase === 'loading') return <ListMessage busy>Loading profile…</ListMessage>;
  if (phase === 'failed' || !detail || !relation) return <ListMessage error={error} onRetry={() => profile.send({ type: 'profile.retry' })} />;
  return (
    <article className="user-profile" aria-label={detail.nickname} data-user-id={detail.userId}>
      <ProfileHead detail={detail} relation={relation} />
      <Actions relation={relation} detail={detail} />
      {detail.picList.length > 0
        ? <MediaGrid items={detail.picList} owner={detail.nickname} />
        : <p className="muted">No photos or videos yet.</p>}
    </article>
  );
}

function ProfileHead({ detail, relation }: { detail: ProfileDetail; relation: FollowRef }) {
  const followerCount = useSelector(relation, selectFollowerCount) ?? detail.followerCount;
  const status = STATUS_LABEL[detail.onlineGroupStatus];
  const facts = [detail.age !== null ? `${detail.age}` : null, detail.countryName].filter(Boolean).join(' · ');
  return (
    <header className="user-profile-head">
      <img className="avatar" src={detail.icon} alt="" width={88} height={88} />
      <div className="user-profile-text">
        <h2 className="profile-name">{detail.nickname}{detail.isVip && <span className="badge-vip"> VIP</span>}</h2>
        <p className="muted">
          <span className="status-dot" data-status={detail.onlineGroupStatus} aria-hidden="true" /> {status} · {detail.levelName}
          {facts && ` · ${facts}`}
        </p>
        <p className="muted" data-testid="profile-counts">
          {followerCount} followers · {detail.followingCount} following
          {isHostType(detail.userType) && ` · ${detail.videoPrice} diamonds/min`}
        </p>
      </div>
    </header>
  );
}

function Actions({ relation, detail }: { relation: FollowRef; detail: ProfileDetail }) {
  const app = useAppActor();
  const me = useSelector(app, selectProfile);
  const session = useSelector(app, selectSession);
  const settings = useAppSettings();
  const followed = useSelector(relation, selectFollowed);
  const blocked = useSelector(relation, selectBlocked);
  const savingFollow = useSelector(relation, selectSavingFollow);
  const savingBlock = useSelector(relation, selectSavingBlock);
  const actionError = useSelector(relation, selectRelationError);
  const visitor = useIsVisitor();
  const own = me?.userId === detail.userId;
  const iAmHost = me?.userType === UserType.host;
  const theyAreHost = isHostType(detail.userType);
  const mayCall = !visitor && !own && !blocked && (iAmHost ? !theyAreHost && hostMayCall(settings, me.userLevel) : theyAreHost);
  useWarmCall(mayCall);
  // A visitor acts on nobody, not even their own profile (SPEC §6).
  if (visitor) return own ? null : <VisitorActions theyAreHost={theyAreHost} />;
  if (own) {
    return <div className="user-profile-actions"><Link to="/profile" className="button-link button-primary">Edit profile</Link></div>;
  }
  return (
    <>
      {detail.living && (
        <div className="user-profile-live">
          <span>{`${detail.nickname} is live now.`}</span>
          <LiveButton hostUserId={detail.userId} nickname={detail.nickname} />
        </div>
      )}
      <div className="user-profile-actions">
        <button
          type="button"
          className={followed ? 'button-link' : 'button-link button-primary'}
          aria-pressed={followed}
          disabled={savingFollow}
          onClick={() => relation.send({ type: 'follow.toggle' })}
        >
          {followed ? 'Unfollow' : 'Follow'}
        </button>
        <Link to="/talk" search={{ to: detail.yxAccid, taPath: 'profile' }} className="button-link">Chat</Link>
        {mayCall && (
          <button
            type="button"
            className="button-link"
            onClick={() => startCall(session, { account: detail.yxAccid, userId: detail.userId, nickname: detail.nickname })}
          >
            Call
          </button>
        )}
        {mayCall && (
          <AudioCallButton
            name={detail.nickname}
            onCall={() => startCall(session, { account: detail.yxAccid, userId: detail.userId, nickname: detail.nickname }, CallType.audio)}
          />
        )}
        <button
          type="button"
          className="button-link"
          aria-pressed={blocked}
          disabled={savingBlock}
          onClick={() => relation.send({ type: 'block.toggle' })}
        >
          {blocked ? 'Unblock' : 'Block'}
        </button>
      </div>
      {blocked && <p className="muted" role="status">You blocked {detail.nickname}: their messages do not reach you.</p>}
      {actionError && <p className="profile-alert" role="alert">{actionError}</p>}
    </>
  );
}
