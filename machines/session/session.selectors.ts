/** Snapshot → child actors of the signed-in session, for the screens that bind to them. */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { AppMachine } from '../app/app.machine';
import type { BannerMachine } from '../banner/banner.machine';
import type { IdleHostMachine } from '../idle-host/idle-host.machine';
import type { CallRef } from '../call/call.selectors';
import type { CallSummary } from '../call/call.types';
import type { ConversationsRef } from '../conversations/conversations.selectors';
import type { ImConnectionMachine } from '../im-connection/im-connection.machine';
import type { PresenceMachine } from '../presence/presence.machine';
import type { TalkMachine } from '../talk/talk.machine';
import type { CallsMachine } from '../calls/calls.machine';
import type { SessionMachine } from './session.machine';
import type { LiveSummary } from '../live-hosting/live-hosting.machine';
import type { LiveHostingRef } from '../live-hosting/live-hosting.selectors';
import type { LiveViewingRef } from '../live-viewing/live-viewing.selectors';
import type { LiveRoomsMachine } from '../live-rooms/live-rooms.machine';
import type { TalksMachine } from '../talks/talks.machine';

export type SessionRef = ActorRefFrom<SessionMachine>;
export type SessionSnapshot = SnapshotFrom<SessionMachine>;
export type BannerRef = ActorRefFrom<BannerMachine>;
export type IdleHostRef = ActorRefFrom<IdleHostMachine>;
export type ImConnectionRef = ActorRefFrom<ImConnectionMachine>;
export type TalkRef = ActorRefFrom<TalkMachine>;

/** The session child of the root actor, while signed in. */
export const selectSession = (app: SnapshotFrom<AppMachine>): SessionRef | undefined => app.children.session;

export const selectBanner = (session: SessionSnapshot | undefined): BannerRef | undefined =>
  session?.children.banner;

/** Hosts only (SPEC §4 Idle host). */
export const selectIdleHost = (session: SessionSnapshot | undefined): IdleHostRef | undefined =>
  session?.children.idleHost;

export const selectImConnection = (session: SessionSnapshot | undefined): ImConnectionRef | undefined =>
  session?.children.imConnection;

export type PresenceRef = ActorRefFrom<PresenceMachine>;

/** Presence (SPEC §4), while signed in: the overlays say when it gave up reconnecting (presence.selectors.ts). */
export const selectPresence = (session: SessionSnapshot | undefined): PresenceRef | undefined =>
  session?.children.presence;

/**
 * The IM service is out of reach: waiting to try again, or trying again after finding it
 * out of reach (so the strip does not blink off during each try).
 */
export const selectImOffline = (connection: SnapshotFrom<ImConnectionMachine> | undefined): boolean =>
  connection !== undefined && (connection.matches('offline') || (connection.matches('loggingIn') && connection.context.offlineTries > 0));

export const selectConversations = (session: SessionSnapshot | undefined): ConversationsRef | undefined =>
  session?.children.conversations;

export type CallsRef = ActorRefFrom<CallsMachine>;

/** The calls (always there while signed in): the call under way, its chat, how the last one ended. */
export const selectCalls = (session: SessionSnapshot | undefined): CallsRef | undefined =>
  session?.children.calls;

/** The call under way, once its code is there. */
export const selectCall = (calls: SnapshotFrom<CallsMachine> | undefined): CallRef | undefined =>
  calls?.children.call;

/** The chat with the peer of the call under way (SPEC §2 in-call chat), once the call was connected. */
export const selectCallChat = (calls: SnapshotFrom<CallsMachine> | undefined): TalkRef | undefined =>
  calls?.children.callChat;

/** The rating of the last call, while its end screen shows and it took place (SPEC §3 Call rating). */
export const selectCallRating = (calls: SnapshotFrom<CallsMachine> | undefined) => calls?.children.rating;

/** How the last call ended (the end screen), until it is dismissed or the next call comes. */
export const selectLastCall = (calls: SnapshotFrom<CallsMachine> | undefined): CallSummary | null =>
  calls?.context.lastCall ?? null;

/** The call screens show: a call is under way (also while its code loads), or the last one's end screen. */
export const selectCallShown = (calls: SnapshotFrom<CallsMachine> | undefined): boolean =>
  calls !== undefined && (!calls.matches('idle') || calls.context.lastCall !== null);

export type LiveRoomsRef = ActorRefFrom<LiveRoomsMachine>;

/** The live rooms (always there while signed in): the host's live, or the one watched. */
export const selectLiveRooms = (session: SessionSnapshot | undefined): LiveRoomsRef | undefined =>
  session?.children.liveRooms;

/** The host's live under way (SPEC §2 /liveSetting → /liveRoom), if any. */
export const selectLiveHosting = (liveRooms: SnapshotFrom<LiveRoomsMachine> | undefined): LiveHostingRef | undefined =>
  liveRooms?.children.liveHosting;

/** The room being watched (SPEC §2 /liveRoom as a viewer), if any. */
export const selectLiveViewing = (liveRooms: SnapshotFrom<LiveRoomsMachine> | undefined): LiveViewingRef | undefined =>
  liveRooms?.children.liveViewing;

/** How the host's last live ended (SPEC §2 /liveEnds), until dismissed or the next live. */
export const selectLastLive = (liveRooms: SnapshotFrom<LiveRoomsMachine> | undefined): LiveSummary | null =>
  liveRooms?.context.lastLive ?? null;

export type TalksRef = ActorRefFrom<TalksMachine>;

/** The talk screen's chats (always there while signed in). */
export const selectTalks = (session: SessionSnapshot | undefined): TalksRef | undefined =>
  session?.children.talks;

/** The talk screen's chat, once its code is there. */
export const selectTalk = (talks: SnapshotFrom<TalksMachine> | undefined): TalkRef | undefined =>
  talks?.children.talk;
