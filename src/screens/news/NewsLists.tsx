/**
 * Two sub-views of /news (SPEC §2 follow/list and records/list with recordsStatus and
 * typeTag): the people one follows (a host live now with a button to the room), and one's
 * call records with a status tag (the §9 labels [Missed], [rejected], [Cancelled], or the
 * duration of a call that took place) and a type tag (video or audio). Names and texts from
 * the server are shown as text.
 */
import { Link } from '@tanstack/react-router';
import { PreviewLabel } from '../../../machines/im/preview';
import { createPagedListMachine } from '../../../machines/paged-list/paged-list.machine';
import * as call from '../../api/contract/call';
import * as people from '../../api/contract/people';
import { EndCause } from '../../api/contract/call';
import type { CallRecord } from '../../api/contract/call';
import type { FollowListItem } from '../../api/contract/people';
import { useServices } from '../../compose/services';
import { LiveButton } from '../../ui/LiveButton';
import { PagedListView } from './PagedListView';
import './news.css';
import { isAudioCall } from '../../../machines/codes/call.codes';

const followsMachine = createPagedListMachine<FollowListItem>({ keyOf: (p) => p.userId });
const recordsMachine = createPagedListMachine<CallRecord>({ keyOf: (r) => r.channelId });

const ONLINE: Readonly<Record<number, string>> = { 1: 'Online', 2: 'Busy', 3: 'Offline' };

export function FollowingList() {
  const { api } = useServices();
  return (
    <PagedListView
      label="Following"
      empty="You do not follow anyone yet."
      machine={followsMachine}
      load={async (currentPage, pageSize) =>
        (await api.data(people.followList, { type: people.FollowListType.follows, currentPage, pageSize }, { silent: true })).list}
      render={(person) => (
        <li key={person.userId} className="news-person">
          <Link to="/userProfile" search={{ userId: person.userId }} className="news-person-link">
            <img className="avatar" src={person.icon} alt="" width={44} height={44} loading="lazy" />
            <span className="news-person-name">{person.nickname}</span>
            <span className="muted news-person-status" data-status={person.onlineGroupStatus}>
              {ONLINE[person.onlineGroupStatus] ?? ONLINE[3]}
            </span>
          </Link>
          {person.living && <LiveButton hostUserId={person.userId} nickname={person.nickname} />}
        </li>
      )}
    />
  );
}

/** SPEC §9 record labels by how the call ended; a call that took place shows its duration instead. */
export function recordStatusOf(record: Pick<CallRecord, 'status' | 'callDuration' | 'endCause'>): string {
  if (record.callDuration > 0) {
    const m = Math.floor(record.callDuration / 60);
    const s = String(record.callDuration % 60).padStart(2, '0');
    return `${m}:${s}`;
  }
  if (record.endCause === EndCause.reject) return PreviewLabel.rejected;
  if (record.endCause === EndCause.cancel) return PreviewLabel.cancelled;
  return PreviewLabel.missed;
}

const recordTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function CallRecordList() {
  const { api } = useServices();
  return (
    <PagedListView
      label="Call records"
      empty="No calls yet."
      machine={recordsMachine}
      load={async (currentPage, pageSize) =>
        (await api.data(call.callRecordList, { currentPage, pageSize }, { silent: true })).list}
      render={(r) => (
        <li key={r.channelId} className="news-record" data-status={r.status}>
          <img className="avatar" src={r.icon} alt="" width={44} height={44} loading="lazy" />
          <span className="news-record-main">
            <span className="news-person-name">{r.nickname}</span>
            <time className="muted news-record-time" dateTime={new Date(r.callStartTime).toISOString()}>
              {recordTime.format(r.callStartTime)}
            </time>
          </span>
          <span className="news-tag" data-kind="type">{isAudioCall(r.callType) ? 'Audio' : 'Video'}</span>
          <span className="news-tag" data-kind="status">{recordStatusOf(r)}</span>
          <span className="muted news-record-direction">{r.callInOrOut === 'out' ? 'Outgoing' : 'Incoming'}</span>
        </li>
      )}
    />
  );
}
