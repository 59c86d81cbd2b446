/**
 * The chat-room port's contract (SPEC §3 Live chat record, §4 Live state: member enter and
 * exit, gag by the anchor; §9 audience query 500, history 5; members speak for themselves
 * only), run against the in-memory
 * fake (chatroom.fake.test.ts) and the local adapter over the reference server's hub
 * (src/adapters/chatroom.local.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Recorder } from './contract.support';
import { perTest, eventually, rejectionOf, settle } from './contract.support';
import type { ChatroomEntry, ChatroomEvent, ChatroomPort } from './chatroom.port';

export interface ChatroomClient {
  port: ChatroomPort;
  /** Valid credentials of this client's account, with the service's record of its nick and avatar. */
  entry: ChatroomEntry;
}

export interface ChatroomContractRig {
  /** The room's owner (the host), a viewer and another viewer; none has entered a room yet. */
  owner: ChatroomClient;
  viewer: ChatroomClient;
  other: ChatroomClient;
  /** Another client of the same service (a second device). */
  newPort(): ChatroomPort;
  /** Opens a room owned by `owner` (an account); the live endpoints do this in the app. */
  openRoom(roomId: string, owner: string): void | Promise<void>;
  /** Ends the room (the live ended). */
  closeRoom(roomId: string): void | Promise<void>;
  /** The service itself posts a message into the room on a member's behalf (a paid live gift). */
  post(roomId: string, message: { from: string; fromNick: string; text?: string; attach?: Record<string, unknown> }): void | Promise<void>;
  /** Cuts the account's link as a network fault would. */
  dropLink(account: string): void | Promise<void>;
  dispose(): void | Promise<void>;
}

export type ChatroomRigFactory = () => ChatroomContractRig | Promise<ChatroomContractRig>;

const ROOM = 'room-1';

export function registerChatroomContract(name: string, factory: ChatroomRigFactory): void {
  describe(`[contract] chat-room port: ${name}`, () => {
    const t = perTest(factory, (rig) => rig.openRoom(ROOM, rig.owner.entry.account));
    const record = (port: ChatroomPort, roomId = ROOM) => t.record<ChatroomEvent>((l) => port.subscribe(roomId, l));
    const enter = (c: ChatroomClient, roomId = ROOM) => c.port.enter(roomId, c.entry);
    const texts = (r: Recorder<ChatroomEvent>) => r.of('message').map((e) => e.message.text);


    it('refuses a wrong token, and a room that is not open', async () => {
      expect(await rejectionOf(t.rig.viewer.port.enter(ROOM, { ...t.rig.viewer.entry, token: 'wrong' }))).toBeInstanceOf(Error);
      expect(await rejectionOf(enter(t.rig.viewer, 'no-such-room'))).toBeInstanceOf(Error);
    });

    it('[§4 Live state, §6] tells members who enters, with nick, avatar and profile; members() lists them up to `limit`', async () => {
      await enter(t.rig.owner);
      const atOwner = record(t.rig.owner.port);
      const ext = { userLevel: 2, isVip: true };
      await t.rig.viewer.port.enter(ROOM, { ...t.rig.viewer.entry, ext });
      await eventually(() => expect(atOwner.of('memberEnter').map((e) => e.member)).toEqual([
        { account: t.rig.viewer.entry.account, nick: t.rig.viewer.entry.nick, avatar: t.rig.viewer.entry.avatar, gagged: false, ext },
      ]));
      await enter(t.rig.other);
      const all = await t.rig.viewer.port.members(ROOM, 500);
      expect(all.map((m) => m.account).sort()).toEqual(
        [t.rig.owner.entry.account, t.rig.viewer.entry.account, t.rig.other.entry.account].sort(),
      );
      expect(all.find((m) => m.account === t.rig.other.entry.account)).toMatchObject({ nick: t.rig.other.entry.nick, gagged: false });
      expect(await t.rig.viewer.port.members(ROOM, 2)).toHaveLength(2);
    });

    it('[§3 Live chat record] delivers a message to every other member, as the sender got it back', async () => {
      await enter(t.rig.owner);
      await enter(t.rig.viewer);
      await enter(t.rig.other);
      const atOwner = record(t.rig.owner.port);
      const atViewer = record(t.rig.viewer.port);
      const atOther = record(t.rig.other.port);
      const elsewhere = record(t.rig.other.port, 'another-room');
      const attach = { isVip: true, isNewUser: false, userLevel: 2 };
      const sent = await t.rig.viewer.port.send(ROOM, { text: 'hi all', attach });
      expect(sent.fromServer).toBeFalsy();
      expect(sent).toMatchObject({ roomId: ROOM, from: t.rig.viewer.entry.account, fromNick: t.rig.viewer.entry.nick, text: 'hi all', attach });
      expect(typeof sent.idServer).toBe('string');
      expect(typeof sent.time).toBe('number');
      await eventually(() => {
        expect(atOwner.of('message').map((e) => e.message)).toEqual([sent]);
        expect(atOther.of('message').map((e) => e.message)).toEqual([sent]);
      });
      await settle();
      expect(atViewer.of('message')).toEqual([]);
      expect(elsewhere.events).toEqual([]);
    });

    it('[§3 Live chat record] a member\'s message carries its profile only: gift fields or anything else are refused (gifts come from the service)', async () => {
      await enter(t.rig.owner);
      await enter(t.rig.viewer);
      const atOwner = record(t.rig.owner.port);
      for (const attach of [
        { giftId: 14, giftImg: '/gifts/castle.svg', giftNum: 99, giftName: 'Castle', sendId: 1 },
        { giftImg: 'https://cdn.example/rose.png', isVip: true },
        { privateCallOpen: false },
      ]) {
        expect(await rejectionOf(t.rig.viewer.port.send(ROOM, { attach }))).toBeInstanceOf(Error);
      }
      // The host is a member like any other here.
      expect(await rejectionOf(t.rig.owner.port.send(ROOM, { attach: { privateCallOpen: true } }))).toBeInstanceOf(Error);
      await settle();
      expect(atOwner.of('message')).toEqual([]);
      expect(await t.rig.owner.port.history(ROOM, 5)).toEqual([]);
    });

    it('[§3 Live chat record] what the service posts reaches every member, the sender too, marked fromServer', async () => {
      await enter(t.rig.owner);
      await enter(t.rig.viewer);
      const atOwner = record(t.rig.owner.port);
      const atViewer = record(t.rig.viewer.port);
      const attach = { giftId: 1, giftImg: '/gifts/rose.svg', giftNum: 2, giftName: 'Rose' };
      await t.rig.post(ROOM, { from: t.rig.viewer.entry.account, fromNick: t.rig.viewer.entry.nick, attach });
      for (const at of [atOwner, atViewer]) {
        await eventually(() => expect(at.of('message').map((e) => e.message)).toEqual([
          expect.objectContaining({ from: t.rig.viewer.entry.account, attach, fromServer: true }),
        ]));
      }
      expect((await t.rig.owner.port.history(ROOM, 5))[0]).toMatchObject({ attach, fromServer: true });
    });

    it('[§3 Live chat record] shows a member by the service\'s record of its nick and avatar, not what it entered with', async () => {
      await enter(t.rig.owner);
      const atOwner = record(t.rig.owner.port);
      const { nick, avatar } = t.rig.viewer.entry;
      await t.rig.viewer.port.enter(ROOM, { ...t.rig.viewer.entry, nick: t.rig.owner.entry.nick, avatar: 'https://elsewhere.example/a.png' });
      await eventually(() => expect(atOwner.of('memberEnter').map((e) => e.member)).toEqual([
        expect.objectContaining({ account: t.rig.viewer.entry.account, nick, avatar }),
      ]));
      expect((await t.rig.owner.port.members(ROOM, 500)).find((m) => m.account === t.rig.viewer.entry.account)).toMatchObject({ nick, avatar });
      const sent = await t.rig.viewer.port.send(ROOM, { text: 'I am the host' });
      expect(sent.fromNick).toBe(nick);
      await eventually(() => expect(atOwner.of('message').map((e) => e.message.fromNick)).toEqual([nick]));
    });

    it('[§9 live history 5] gives the newest messages first, at most `limit`', async () => {
      await enter(t.rig.owner);
      await enter(t.rig.viewer);
      for (let i = 0; i < 7; i++) await t.rig.owner.port.send(ROOM, { text: `m${i}` });
      const history = await t.rig.viewer.port.history(ROOM, 5);
      expect(history.map((m) => m.text)).toEqual(['m6', 'm5', 'm4', 'm3', 'm2']);
    });

    it('[§4 Live state] tells the others when a member leaves', async () => {
      await enter(t.rig.owner);
      await enter(t.rig.viewer);
      const atOwner = record(t.rig.owner.port);
      await t.rig.viewer.port.leave(ROOM);
      await eventually(() => expect(atOwner.of('memberExit').map((e) => e.account)).toEqual([t.rig.viewer.entry.account]));
      expect((await t.rig.owner.port.members(ROOM, 500)).map((m) => m.account)).toEqual([t.rig.owner.entry.account]);
      const atViewer = record(t.rig.viewer.port);
      await t.rig.owner.port.send(ROOM, { text: 'after you left' });
      await settle();
      expect(atViewer.events).toEqual([]);
    });

    it('[§4 Live state] the owner gags and ungags a member; a gagged member cannot send', async () => {
      await enter(t.rig.owner);
      await enter(t.rig.viewer);
      await enter(t.rig.other);
      const atViewer = record(t.rig.viewer.port);
      const atOther = record(t.rig.other.port);
      await t.rig.owner.port.setGagged(ROOM, t.rig.viewer.entry.account, true);
      await eventually(() => {
        expect(atViewer.of('gag')).toEqual([{ type: 'gag', account: t.rig.viewer.entry.account, gagged: true }]);
        expect(atOther.of('gag')).toEqual([{ type: 'gag', account: t.rig.viewer.entry.account, gagged: true }]);
      });
      expect(await rejectionOf(t.rig.viewer.port.send(ROOM, { text: 'shh' }))).toBeInstanceOf(Error);
      const members = await t.rig.other.port.members(ROOM, 500);
      expect(members.find((m) => m.account === t.rig.viewer.entry.account)?.gagged).toBe(true);

      await t.rig.owner.port.setGagged(ROOM, t.rig.viewer.entry.account, false);
      await eventually(() => expect(atViewer.of('gag').at(-1)).toMatchObject({ gagged: false }));
      await expect(t.rig.viewer.port.send(ROOM, { text: 'back' })).resolves.toMatchObject({ text: 'back' });
    });

    it('refuses a gag from anyone but the owner', async () => {
      await enter(t.rig.owner);
      await enter(t.rig.viewer);
      await enter(t.rig.other);
      expect(await rejectionOf(t.rig.viewer.port.setGagged(ROOM, t.rig.other.entry.account, true))).toBeInstanceOf(Error);
      await expect(t.rig.other.port.send(ROOM, { text: 'still here' })).resolves.toMatchObject({ text: 'still here' });
    });

    it('[§4 Live state] tells every member when the room closes', async () => {
      await enter(t.rig.owner);
      await enter(t.rig.viewer);
      const atViewer = record(t.rig.viewer.port);
      await t.rig.closeRoom(ROOM);
      await eventually(() => expect(atViewer.of('closed')).toEqual([{ type: 'closed', reason: 'roomClosed' }]));
      expect(await rejectionOf(t.rig.viewer.port.send(ROOM, { text: 'anyone?' }))).toBeInstanceOf(Error);
    });

    it('entering from a second client closes the first one\'s membership', async () => {
      await enter(t.rig.owner);
      await enter(t.rig.viewer);
      const atFirst = record(t.rig.viewer.port);
      const second = t.rig.newPort();
      const atSecond = record(second);
      await second.enter(ROOM, t.rig.viewer.entry);
      await eventually(() => expect(atFirst.of('closed')).toEqual([{ type: 'closed', reason: 'kicked' }]));
      await t.rig.owner.port.send(ROOM, { text: 'to the new one' });
      await eventually(() => expect(texts(atSecond)).toEqual(['to the new one']));
      expect(texts(atFirst)).toEqual([]);
    });

    it('after a dropped link the member is back in the room on its own and keeps receiving', async () => {
      await enter(t.rig.owner);
      await enter(t.rig.viewer);
      const atOwner = record(t.rig.owner.port);
      const atViewer = record(t.rig.viewer.port);
      await t.rig.dropLink(t.rig.viewer.entry.account);
      await eventually(() => {
        expect(atOwner.of('memberExit').map((e) => e.account)).toEqual([t.rig.viewer.entry.account]);
        expect(atOwner.of('memberEnter').map((e) => e.member.account)).toEqual([t.rig.viewer.entry.account]);
      });
      await t.rig.owner.port.send(ROOM, { text: 'still with us?' });
      await eventually(() => expect(texts(atViewer)).toEqual(['still with us?']));
      expect(atViewer.of('closed')).toEqual([]);
    });
  });
}
