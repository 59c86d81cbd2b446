/** Snapshot → child actors of the signed-in session, for the screens that bind to them. */
import type { ActorRefFrom, AnyMachineSnapshot, SnapshotFrom } from 'xstate';
import type { BannerMachine } from '../banner/banner.machine';
import type { IdleHostMachine } from '../idle-host/idle-host.machine';
import type { CallRef } from '../call/call.selectors';
import type { CallSummary } from '../call/call.types';
import type { ConversationsRef } from '../conversations/conversations.selectors';
import type { ImConnectionMachine } from '../im-connection/im-connection.machine';
import type { PresenceMachine } from '../presence/presence.machine';
import type { TalkMachine } from '../talk/talk.machine';
import type { CallsMachine } from './calls.machine';
import type { SessionMachine } from './session.machine';
import type { LiveSummary } from '../live-hosting/live-hosting.machine';
import type { LiveHostingRef } from '../live-hosting/live-hosting.selectors';
import type { LiveViewingRef } from '../live-viewing/live-viewing.selectors';
import type { LiveRoomsMachine } from './live-rooms.machine';

export type SessionRef = ActorRefFrom<SessionMachine>;
export type BannerRef = ActorRefFrom<BannerMachine>;
export type IdleHostRef = ActorRefFrom<IdleHostMachine>;
export type ImConnectionRef = ActorRefFrom<ImConnectionMachine>;
export type TalkRef = ActorRefFrom<TalkMachine>;

/** The session child of the root actor, while signed in. */
export const selectSession = (app: AnyMachineSnapshot): SessionRef | undefined =>
  app.children.session as SessionRef | undefined;

export const selectBanner = (session: AnyMachineSnapshot | undefined): BannerRef | undefined =>
  session?.children.banner as BannerRef | undefined;

/** Hosts only (SPEC §4 Idle host). */
export const selectIdleHost = (session: AnyMachineSnapshot | undefined): IdleHostRef | undefined =>
  session?.children.idleHost as IdleHostRef | undefined;

export const selectImConnection = (session: AnyMachineSnapshot | undefined): ImConnectionRef | undefined =>
  session?.children.imConnection as ImConnectionRef | undefined;

export type PresenceRef = ActorRefFrom<PresenceMachine>;

/** Presence (SPEC §4), while signed in: the overlays say when it gave up reconnecting (presence.selectors.ts). */
export const selectPresence = (session: AnyMachineSnapshot | undefined): PresenceRef | undefined =>
  session?.children.presence as PresenceRef | undefined;

/**
 * The IM service is out of reach: waiting to try again, or trying again after finding it
 * out of reach (so the strip does not blink off during each try).
 */
export const selectImOffline = (connection: AnyMachineSnapshot | undefined): boolean =>
  (connection?.matches('offline') ?? false)
  || ((connection?.matches('loggingIn') ?? false) && (connection?.context as { offlineTries?: number }).offlineTries! > 0);

export const selectConversations = (session: AnyMachineSnapshot | undefined): ConversationsRef | undefined =>
  session?.children.conversations as ConversationsRef | undefined;

export type CallsRef = ActorRefFrom<CallsMachine>;

/** The calls (always there while signed in): the call under way, its chat, how the last one ended. */
export const selectCalls = (session: AnyMachineSnapshot | undefined): CallsRef | undefined =>
  session?.children.calls as CallsRef | undefined;

/** The call under way, once its code is there. */
export const selectCall = (calls: SnapshotFrom<CallsMachine> | undefined): CallRef | undefined =>
  calls?.children.call as CallRef | undefined;

/** The chat with the peer of the call under way (SPEC §2 in-call chat), once the call was connected. */
export const selectCallChat = (calls: SnapshotFrom<CallsMachine> | undefined): TalkRef | undefined =>
  calls?.children.callChat as TalkRef | undefined;

/** How the last call ended (the end screen), until it is dismissed or the next call comes. */
export const selectLastCall = (calls: SnapshotFrom<CallsMachine> | undefined): CallSummary | null =>
  calls?.context.lastCall ?? null;

/** The call screens show: a call is under way (also while its code loads), or the last one's end screen. */
export const selectCallShown = (calls: SnapshotFrom<CallsMachine> | undefined): boolean =>
  calls !== undefined && (!calls.matches('idle') || calls.context.lastCall !== null);

export type LiveRoomsRef = ActorRefFrom<LiveRoomsMachine>;

/** The live rooms (always there while signed in): the host's live, or the one watched. */
export const selectLiveRooms = (session: AnyMachineSnapshot | undefined): LiveRoomsRef | undefined =>
  session?.children.live as LiveRoomsRef | undefined;

/** The host's live under way (SPEC §2 /liveSetting → /liveRoom), if any. */
export const selectLiveHosting = (liveRooms: SnapshotFrom<LiveRoomsMachine> | undefined): LiveHostingRef | undefined =>
  liveRooms?.children.liveHosting as LiveHostingRef | undefined;

/** The room being watched (SPEC §2 /liveRoom as a viewer), if any. */
export const selectLiveViewing = (liveRooms: SnapshotFrom<LiveRoomsMachine> | undefined): LiveViewingRef | undefined =>
  liveRooms?.children.liveViewing as LiveViewingRef | undefined;

/** How the host's last live ended (SPEC §2 /liveEnds), until dismissed or the next live. */
export const selectLastLive = (liveRooms: SnapshotFrom<LiveRoomsMachine> | undefined): LiveSummary | null =>
  liveRooms?.context.lastLive ?? null;
