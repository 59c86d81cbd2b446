/**
 * The chat-room port's contract (SPEC §3 Live chat record, §4 Live state: member enter and
 * exit, gag by the anchor; §9 audience query 500, history 5), run against the in-memory
 * fake (chatroom.fake.test.ts) and the local adapter over the reference server's hub
 * (src/adapters/chatroom.local.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Recorder, eventually, rejectionOf, settle } from './contract.support';
import type { ChatroomEntry, ChatroomEvent, ChatroomPort } from './chatroom.port';

export interface ChatroomClient {
  port: ChatroomPort;
  /** Valid credentials and profile of this client's account. */
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
  /** Cuts the account's link as a network fault would. */
  dropLink(account: string): void | Promise<void>;
  dispose(): void | Promise<void>;
}

export type ChatroomRigFactory = () => ChatroomContractRig | Promise<ChatroomContractRig>;

const ROOM = 'room-1';

export function registerChatroomContract(name: string, factory: ChatroomRigFactory): void {
  describe(`[contract] chat-room port: ${name}`, () => {
    let rig: ChatroomContractRig;
    const recorders: Recorder<ChatroomEvent>[] = [];
    const record = (port: ChatroomPort, roomId = ROOM) => {
      const r = new Recorder<ChatroomEvent>((l) => port.subscribe(roomId, l));
      recorders.push(r);
      return r;
    };
    const enter = (c: ChatroomClient, roomId = ROOM) => c.port.enter(roomId, c.entry);
    const texts = (r: Recorder<ChatroomEvent>) => r.of('message').map((e) => e.message.text);

    beforeEach(async () => {
      rig = await factory();
      await rig.openRoom(ROOM, rig.owner.entry.account);
    });
    afterEach(async () => {
      recorders.splice(0).forEach((r) => r.dispose());
      await rig.dispose();
    });

    it('refuses a wrong token, and a room that is not open', async () => {
      expect(await rejectionOf(rig.viewer.port.enter(ROOM, { ...rig.viewer.entry, token: 'wrong' }))).toBeInstanceOf(Error);
      expect(await rejectionOf(enter(rig.viewer, 'no-such-room'))).toBeInstanceOf(Error);
    });

    it('[§4 Live state] tells members who enters, with nick and avatar; members() lists them up to `limit`', async () => {
      await enter(rig.owner);
      const atOwner = record(rig.owner.port);
      await enter(rig.viewer);
      await eventually(() => expect(atOwner.of('memberEnter').map((e) => e.member)).toEqual([
        { account: rig.viewer.entry.account, nick: rig.viewer.entry.nick, avatar: rig.viewer.entry.avatar, gagged: false },
      ]));
      await enter(rig.other);
      const all = await rig.viewer.port.members(ROOM, 500);
      expect(all.map((m) => m.account).sort()).toEqual(
        [rig.owner.entry.account, rig.viewer.entry.account, rig.other.entry.account].sort(),
      );
      expect(all.find((m) => m.account === rig.other.entry.account)).toMatchObject({ nick: rig.other.entry.nick, gagged: false });
      expect(await rig.viewer.port.members(ROOM, 2)).toHaveLength(2);
    });

    it('[§3 Live chat record] delivers a message to every other member, as the sender got it back', async () => {
      await enter(rig.owner);
      await enter(rig.viewer);
      await enter(rig.other);
      const atOwner = record(rig.owner.port);
      const atViewer = record(rig.viewer.port);
      const atOther = record(rig.other.port);
      const elsewhere = record(rig.other.port, 'another-room');
      const attach = { giftImg: 'https://cdn.example/rose.png', giftNum: 3, isVip: true, userLevel: 2 };
      const sent = await rig.viewer.port.send(ROOM, { text: 'hi all', attach });
      expect(sent).toMatchObject({ roomId: ROOM, from: rig.viewer.entry.account, fromNick: rig.viewer.entry.nick, text: 'hi all', attach });
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

    it('[§9 live history 5] gives the newest messages first, at most `limit`', async () => {
      await enter(rig.owner);
      await enter(rig.viewer);
      for (let i = 0; i < 7; i++) await rig.owner.port.send(ROOM, { text: `m${i}` });
      const history = await rig.viewer.port.history(ROOM, 5);
      expect(history.map((m) => m.text)).toEqual(['m6', 'm5', 'm4', 'm3', 'm2']);
    });

    it('[§4 Live state] tells the others when a member leaves', async () => {
      await enter(rig.owner);
      await enter(rig.viewer);
      const atOwner = record(rig.owner.port);
      await rig.viewer.port.leave(ROOM);
      await eventually(() => expect(atOwner.of('memberExit').map((e) => e.account)).toEqual([rig.viewer.entry.account]));
      expect((await rig.owner.port.members(ROOM, 500)).map((m) => m.account)).toEqual([rig.owner.entry.account]);
      const atViewer = record(rig.viewer.port);
      await rig.owner.port.send(ROOM, { text: 'after you left' });
      await settle();
      expect(atViewer.events).toEqual([]);
    });

    it('[§4 Live state] the owner gags and ungags a member; a gagged member cannot send', async () => {
      await enter(rig.owner);
      await enter(rig.viewer);
      await enter(rig.other);
      const atViewer = record(rig.viewer.port);
      const atOther = record(rig.other.port);
      await rig.owner.port.setGagged(ROOM, rig.viewer.entry.account, true);
      await eventually(() => {
        expect(atViewer.of('gag')).toEqual([{ type: 'gag', account: rig.viewer.entry.account, gagged: true }]);
        expect(atOther.of('gag')).toEqual([{ type: 'gag', account: rig.viewer.entry.account, gagged: true }]);
      });
      expect(await rejectionOf(rig.viewer.port.send(ROOM, { text: 'shh' }))).toBeInstanceOf(Error);
      const members = await rig.other.port.members(ROOM, 500);
      expect(members.find((m) => m.account === rig.viewer.entry.account)?.gagged).toBe(true);

      await rig.owner.port.setGagged(ROOM, rig.viewer.entry.account, false);
      await eventually(() => expect(atViewer.of('gag').at(-1)).toMatchObject({ gagged: false }));
      await expect(rig.viewer.port.send(ROOM, { text: 'back' })).resolves.toMatchObject({ text: 'back' });
    });

    it('refuses a gag from anyone but the owner', async () => {
      await enter(rig.owner);
      await enter(rig.viewer);
      await enter(rig.other);
      expect(await rejectionOf(rig.viewer.port.setGagged(ROOM, rig.other.entry.account, true))).toBeInstanceOf(Error);
      await expect(rig.other.port.send(ROOM, { text: 'still here' })).resolves.toMatchObject({ text: 'still here' });
    });

    it('[§4 Live state] tells every member when the room closes', async () => {
      await enter(rig.owner);
      await enter(rig.viewer);
      const atViewer = record(rig.viewer.port);
      await rig.closeRoom(ROOM);
      await eventually(() => expect(atViewer.of('closed')).toEqual([{ type: 'closed', reason: 'roomClosed' }]));
      expect(await rejectionOf(rig.viewer.port.send(ROOM, { text: 'anyone?' }))).toBeInstanceOf(Error);
    });

    it('entering from a second client closes the first one\'s membership', async () => {
      await enter(rig.owner);
      await enter(rig.viewer);
      const atFirst = record(rig.viewer.port);
      const second = rig.newPort();
      const atSecond = record(second);
      await second.enter(ROOM, rig.viewer.entry);
      await eventually(() => expect(atFirst.of('closed')).toEqual([{ type: 'closed', reason: 'kicked' }]));
      await rig.owner.port.send(ROOM, { text: 'to the new one' });
      await eventually(() => expect(texts(atSecond)).toEqual(['to the new one']));
      expect(texts(atFirst)).toEqual([]);
    });

    it('after a dropped link the member is back in the room on its own and keeps receiving', async () => {
      await enter(rig.owner);
      await enter(rig.viewer);
      const atOwner = record(rig.owner.port);
      const atViewer = record(rig.viewer.port);
      await rig.dropLink(rig.viewer.entry.account);
      await eventually(() => {
        expect(atOwner.of('memberExit').map((e) => e.account)).toEqual([rig.viewer.entry.account]);
        expect(atOwner.of('memberEnter').map((e) => e.member.account)).toEqual([rig.viewer.entry.account]);
      });
      await rig.owner.port.send(ROOM, { text: 'still with us?' });
      await eventually(() => expect(texts(atViewer)).toEqual(['still with us?']));
      expect(atViewer.of('closed')).toEqual([]);
    });
  });
}
