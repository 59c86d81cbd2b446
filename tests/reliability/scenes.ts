/**
 * Scenes the probes set up through the API and the hub as the app would: a host who is
 * reachable (presence socket saying foreground), a connected call, a live room. Requests that
 * move money carry an idempotency key, one per intent, as the contract asks.
 */
import { randomUUID } from 'node:crypto';
import { PresenceCode } from '../../machines/ports/presence.port';
import { endpoints } from '../../src/api/contract';
import { RealtimePath } from '../../src/api/contract/realtime';
import { apiData, hubSocket, type HubSocket, type Person } from './client';

/** A new idempotency key: one per user intent (a retry or a replay reuses it). */
export const intentKey = (): string => randomUUID();

/** Opens the person's presence socket and says foreground (the host can be called). */
export async function present(base: string, person: Person): Promise<HubSocket> {
  const socket = await hubSocket(base, RealtimePath.presence, { from: person.from });
  await socket.call('auth', { token: person.token });
  await socket.call('status', { code: PresenceCode.foreground });
  return socket;
}

export interface ConnectedCall {
  channelId: string;
  user: Person;
  host: Person;
}

/** The user calls the host (who must be present) and the host takes the call: billing starts. */
export async function connectCall(base: string, user: Person, host: Person): Promise<ConnectedCall> {
  const call = await apiData<{ channelId: string }>(
    base, endpoints.createCall, { beCallUserId: host.userId, callType: 0, idempotencyKey: intentKey() }, user.token, { from: user.from },
  );
  await apiData(base, endpoints.joinCall, { searchValue: call.channelId, idempotencyKey: intentKey() }, host.token, { from: host.from });
  return { channelId: call.channelId, user, host };
}

export async function endCall(base: string, who: Person, channelId: string): Promise<void> {
  await apiData(base, endpoints.endCall, { channelId, hangupReason: 1 }, who.token, { from: who.from });
}

export interface LiveRoom {
  host: Person;
  yxRoomId: string;
  agoraChannelId: string;
}

/** The host goes live (a picture and a video may be needed first: checkUserInfo; seeded hosts have both). */
export async function goLive(base: string, host: Person, title = 'Probe live'): Promise<LiveRoom> {
  const live = await apiData<{ yxRoomId: string; agoraChannelId: string }>(
    base, endpoints.beginLiveRoom, { title, privateCallOpen: false }, host.token, { from: host.from },
  );
  return { host, yxRoomId: live.yxRoomId, agoraChannelId: live.agoraChannelId };
}
