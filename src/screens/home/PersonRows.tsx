/**
 * Row lists of the home's Users and Live tabs (SPEC §2 / online and liveList). Users: a host's
 * users (SPEC §7 anchorGetUserList), online first, with Call and Audio call only when the server says
 * this host may call (`prime_achor_can_call` and the host's level in `achor_hide_button`).
 * Live: the followed hosts' rooms, then every room. Names and titles are shown as text.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectItems } from '../../../machines/paged-list/paged-list.selectors';
import type { FollowedLiveRef } from '../../../machines/home-list/home-list.machine';
import type { LiveCard, OnlineStatus, UserCard } from '../../../machines/home-list/home-list.port';
import { statusOf } from '../../../machines/home-list/home-list.selectors';
import { selectSession } from '../../../machines/session/session.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { AudioCallButton } from '../../ui/CallButtons';
import { ListMessage } from '../../ui/ListMessage';
import { STATUS_LABEL } from '../../ui/person';
import { AUDIO_CALL, startCall } from '../user-profile/startCall';

export const TEXT_PRIME_ONLY = 'Calling users is open to prime hosts of the listed levels.';

export function UserRows({ users, statuses }: { users: readonly UserCard[]; statuses: Readonly<Record<string, OnlineStatus>> }) {
  const session = useSelector(useAppActor(), selectSession);
  const canCall = users[0]?.canCall ?? false;
  return (
    <>
      {!canCall && <p className="home-note muted">{TEXT_PRIME_ONLY}</p>}
      <ul className="person-rows" aria-label="Users" data-can-call={canCall}>
        {users.map((user) => {
          const status = statusOf(user, statuses);
          return (
            <li key={user.userId} className="person-row">
              <Link to="/userProfile" search={{ userId: String(user.userId) }} className="person-row-link">
                <img className="avatar" src={user.icon} alt="" width={44} height={44} loading="lazy" decoding="async" />
                <span className="person-row-text">
                  <span className="person-row-name">{user.nickname}{user.isVip && <span className="badge-vip"> Prime</span>}</span>
                  <span className="muted person-row-sub">
                    <span className="status-dot" data-status={status} aria-hidden="true" /> {STATUS_LABEL[status]} · {user.levelName}
                  </span>
                </span>
              </Link>
              {user.canCall && (
                <span className="person-row-actions">
                  <button
                    type="button"
                    className="button-link button-primary person-row-action"
                    aria-label={`Call ${user.nickname}`}
                    disabled={status !== 1}
                    onClick={() => startCall(session, { account: user.yxAccid, userId: user.userId, nickname: user.nickname })}
                  >
                    Call
                  </button>
                  <AudioCallButton
                    name={user.nickname}
                    className="button-link person-row-action"
                    disabled={status !== 1}
                    onCall={() => startCall(session, { account: user.yxAccid, userId: user.userId, nickname: user.nickname }, AUDIO_CALL)}
                  />
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}

export function LiveRows({ rooms, followedLive, empty }: { rooms: readonly LiveCard[]; followedLive: FollowedLiveRef | null; empty: string }) {
  const followed = useSelector(followedLive ?? undefined, (s) => (s ? selectItems(s) : [])) as readonly LiveCard[] | undefined;
  const following = followed ?? [];
  if (rooms.length === 0 && following.length === 0) return <ListMessage>{empty}</ListMessage>;
  return (
    <>
      {following.length > 0 && <RoomList label="Following" rooms={following} />}
      {rooms.length > 0 && <RoomList label="Live now" rooms={rooms} />}
    </>
  );
}

function RoomList({ label, rooms }: { label: string; rooms: readonly LiveCard[] }) {
  return (
    <section className="live-section" aria-label={label}>
      <h2 className="home-section-title">{label}</h2>
      <ul className="person-rows">
        {rooms.map((room) => (
          <li key={room.userId} className="person-row">
            <Link to="/liveRoom" search={{ anchorId: String(room.userId) }} className="person-row-link">
              <img className="avatar" src={room.icon} alt="" width={44} height={44} loading="lazy" decoding="async" />
              <span className="person-row-text">
                <span className="person-row-name">{room.title || room.nickname}</span>
                <span className="muted person-row-sub">{room.nickname} · {room.joinNum} watching</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
