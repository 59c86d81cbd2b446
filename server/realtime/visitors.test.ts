/**
 * [§6] A visitor may log in and register only: over the hub a visitor's IM login (to chat with
 * a host) and chat-room entry (to talk in a live room) are refused with the sign-up sentence,
 * and signalling and call media are out of reach, as the Agora tokens they need are refused.
 * A signed-up user of the same server gets through the same doors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ResultCode, TEXT_VISITOR_REFUSED } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { HubCode, RealtimePath } from '../../src/api/contract/realtime';
import { device } from '../testing/harness';
import { startRealtimeServer, type RealtimeTestServer } from './testing';

/** Opens a hub socket and answers `ask(op, args)` with the reply frame of that request. */
async function open(url: string) {
  const ws = new WebSocket(url);
  const replies = new Map<number, Record<string, unknown>>();
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Record<string, unknown>;
    if (typeof frame.id === 'number') replies.set(frame.id, frame);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let next = 1;
  return {
    ws,
    async ask(op: string, args: object) {
      const id = next++;
      ws.send(JSON.stringify({ id, op, ...args }));
      for (let i = 0; i < 400 && !replies.has(id); i++) await new Promise((r) => setTimeout(r, 5));
      return replies.get(id);
    },
  };
}

let hub: RealtimeTestServer;
let visitor: { account: string; imToken: string; session: string };
beforeAll(async () => {
  hub = await startRealtimeServer();
  const entered = await hub.server.call(endpoints.visit, { ...device, deviceId: 'hub-visitor' });
  const session = entered.data!.token;
  const mine = await hub.server.call(endpoints.userInfo, {}, { token: session });
  visitor = { account: mine.data!.yxAccid, imToken: mine.data!.imToken, session };
});
afterAll(() => hub.close());

const refused = { ok: false, code: HubCode.forbidden, message: TEXT_VISITOR_REFUSED };

describe('[§6] a visitor on the hub', () => {
  it('cannot log in to the IM, so cannot message or notify a host; a user can', async () => {
    const im = await open(hub.url(RealtimePath.im));
    expect(await im.ask('login', { account: visitor.account, token: visitor.imToken })).toMatchObject(refused);
    // Not logged in: a message goes nowhere.
    const send = await im.ask('send', { to: hub.users[0]!.account, type: 'text', text: 'hi', idClient: 'v-1' });
    expect(send).toMatchObject({ ok: false });
    im.ws.close();

    const user = await open(hub.url(RealtimePath.im));
    expect(await user.ask('login', { account: hub.users[1]!.account, token: hub.users[1]!.token })).toMatchObject({ ok: true });
    user.ws.close();
  });

  it('cannot enter a live room\'s chat to talk; a user can', async () => {
    hub.server.app.realtime.chatrooms.open('live-visitor', hub.users[0]!.account);
    const room = await open(hub.url(RealtimePath.chatroom));
    expect(await room.ask('enter', { roomId: 'live-visitor', account: visitor.account, token: visitor.imToken, nick: 'V' }))
      .toMatchObject(refused);
    const user = await open(hub.url(RealtimePath.chatroom));
    expect(await user.ask('enter', { roomId: 'live-visitor', account: hub.users[1]!.account, token: hub.users[1]!.token, nick: 'U' }))
      .toMatchObject({ ok: true });
    room.ws.close();
    user.ws.close();
  });

  it('gets no rtm or rtc token, so can neither signal a call nor join call media', async () => {
    expect(await hub.server.call(endpoints.getAgoraRtmToken, {}, { token: visitor.session }))
      .toEqual({ code: ResultCode.visitorRefused, message: TEXT_VISITOR_REFUSED });
    const signal = await open(hub.url(RealtimePath.signal));
    expect(await signal.ask('login', { account: visitor.account, token: visitor.imToken })).toMatchObject({ ok: false });
    signal.ws.close();
  });
});
