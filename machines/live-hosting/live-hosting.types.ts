/**
 * Hosting a live room: the codes, constants, texts and shapes (SPEC §4 Live state, System
 * messages 44 / 63 / 64; §8 beauty errors during live; §9 heartbeat 10 s, live call warning
 * 300 s), declared once for the machine, its screens and tests.
 */
import type { ChatroomEntry } from '../ports/chatroom.port';
import type { LiveMediaEvent, LiveRoom, LiveStats } from '../ports/live.port';
import type { SystemEvent } from '../system-messages/system-messages';
import { LIVE_END_CODE_FORCED } from '../system-messages/system-messages';

/** SPEC §4 Live state. */
export const LiveState = { empty: 'empty', living: 'living', liveCalling: 'liveCalling', waitingReturnLive: 'waitingReturnLive' } as const;
export type LiveState = (typeof LiveState)[keyof typeof LiveState];
/** SPEC §4: busy = living or in a call (from the live, or coming back from one). */
export const isBusy = (state: LiveState): boolean => state !== LiveState.empty;

/** SPEC §9 heartbeat 10 s, unless the server asks for faster beats (LiveRoom.heartbeatIntervalMs). */
export const HEARTBEAT_MS = 10_000;
/** The fastest beat taken from the server. */
export const MIN_HEARTBEAT_MS = 500;
/** Beats in a row that may fail before the live is given up (the server ends a silent room anyway). */
export const HEARTBEAT_MAX_FAILURES = 3;
/** SPEC §9: the host is warned when a call from the live lasts 300 s. */
export const LIVE_CALL_WARNING_MS = 300_000;

export const LIVE_ROOM_PATH = '/liveRoom';
export const LIVE_ENDS_PATH = '/liveEnds';

/**
 * Why a live ended. 3 (system message 44) and 99 (the beauty camera failed) are SPEC's; the
 * others are this app's own, for its screens and logs.
 */
export const LiveEndCode = {
  byHost: 1,
  forced: LIVE_END_CODE_FORCED,
  /** The server closed the room (the heartbeat said so, or the chat room closed). */
  roomClosed: 4,
  /** The heartbeat failed HEARTBEAT_MAX_FAILURES times in a row. */
  heartbeatLost: 5,
  /** The camera could not publish, or the media link was lost for good. */
  mediaFailed: 6,
  beautyFailed: 99,
} as const;
export type LiveEndCode = (typeof LiveEndCode)[keyof typeof LiveEndCode];

/** What the host is told when the live ends without being asked to (SPEC §8 'Beauty Camera Error!'). */
export const LiveEndText: Readonly<Record<LiveEndCode, string | null>> = {
  [LiveEndCode.byHost]: null,
  [LiveEndCode.forced]: 'Your live was ended by the system.',
  [LiveEndCode.roomClosed]: 'Your live room was closed.',
  [LiveEndCode.heartbeatLost]: 'Your live ended: the server could not be reached.',
  [LiveEndCode.mediaFailed]: 'Your live ended: the camera stream stopped.',
  [LiveEndCode.beautyFailed]: 'Beauty Camera Error!',
};

export const TEXT_GO_LIVE_FAILED = 'Could not go live. Please try again.';
export const TEXT_PRIVATE_CALL_FAILED = 'Could not change private calls. Please try again.';
export const TEXT_LIVE_CALL_WARNING = 'This private call has lasted 5 minutes. Your live room is waiting for you.';

/** SPEC §2 /liveSetting: what going live takes. */
export interface LiveSetting {
  title: string;
  cover?: string;
  privateCallOpen: boolean;
}

export interface LiveHostingInput {
  setting: LiveSetting;
  /** How the host enters the room's chat (IM account and token, nick, avatar, ext). */
  entry: ChatroomEntry;
}

export interface LiveEnd {
  code: LiveEndCode;
  /** What the host is told, if anything. */
  text: string | null;
}

export interface LiveHostingContext extends LiveHostingInput {
  room: LiveRoom | null;
  /** The private-call switch as the server has it. */
  privateCallOpen: boolean;
  heartbeatMs: number;
  end: LiveEnd | null;
  stats: LiveStats | null;
  /** Why going live failed. */
  failure: string | null;
}

/** What a finished live leaves for /liveEnds (null code: it never went live). */
export interface LiveSummary {
  title: string;
  code: LiveEndCode | null;
  text: string | null;
  stats: LiveStats | null;
}

export type LiveHostingEvent =
  | { type: 'live.end' }
  | { type: 'live.setPrivateCall'; open: boolean }
  /** The session's call with a viewer is being taken (connecting) or is on. */
  | { type: 'call.started' }
  | { type: 'call.ended' }
  /** The beauty camera failed during the live (SPEC §8: the live ends, code 99). */
  | { type: 'beauty.failed'; text?: string }
  | { type: 'media.event'; event: LiveMediaEvent }
  | Extract<SystemEvent, { type: 'system.liveForcedEnd' | 'system.boosting' }>;

export type LiveHostingEmitted =
  | { type: 'live.navigate'; to: string }
  | { type: 'live.toast'; text: string }
  /** SPEC §9 live call warning. */
  | { type: 'live.warning'; text: string };
