/**
 * The IM port's contract (SPEC §3 Message and Chat session, §4 Message service, §8 codes):
 * what every implementation promises (a client's custom notifications carry no attachType:
 * system messages come only from the server), run against the in-memory fake
 * (im.fake.test.ts) and the local adapter over the reference server's hub
 * (src/adapters/im.local.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Recorder } from './contract.support';
import { perTest, eventually, rejectionOf, settle } from './contract.support';
import { ImCode, ImError, TOKEN_REFRESH_CODES } from './im.port';
import type { ImEvent, ImMessage, ImPort } from './im.port';

export interface ImClient {
  port: ImPort;
  account: string;
  token: string;
}

export interface ImContractRig {
  /** Three accounts on one service, each with a client that is not logged in yet. */
  a: ImClient;
  b: ImClient;
  c: ImClient;
  /** Another client of the same service (a second device). */
  newPort(): ImPort;
  /** Cuts the account's link as a network fault would. */
  dropLink(account: string): void | Promise<void>;
  /** `blocker` refuses messages from `blocked` from now on. */
  block(blocker: string, blocked: string): void | Promise<void>;
  dispose(): void | Promise<void>;
}

export type ImRigFactory = () => ImContractRig | Promise<ImContractRig>;

const messages = (r: Recorder<ImEvent>): ImMessage[] => r.of('message').map((e) => e.message);
const texts = (r: Recorder<ImEvent>): (string | undefined)[] => messages(r).map((m) => m.text);
const contentOf = (content: unknown): unknown => (typeof content === 'string' ? JSON.parse(content) : content);

export function registerImContract(name: string, factory: ImRigFactory): void {
  describe(`[contract] IM port: ${name}`, () => {
    const t = perTest(factory);
    const record = (port: ImPort) => t.record<ImEvent>((l) => port.subscribe(l));
    const login = (c: ImClient) => c.port.login(c.account, c.token);


    it('[§8] refuses a wrong token or an unknown account with a token-refresh code', async () => {
      for (const [account, token] of [[t.rig.a.account, 'wrong-token'], ['nobody-here', t.rig.a.token]] as const) {
        const error = await rejectionOf(t.rig.a.port.login(account, token));
        expect(error).toBeInstanceOf(ImError);
        expect(TOKEN_REFRESH_CODES).toContain((error as ImError).code);
      }
    });

    it('refuses every call but login while not logged in, with -10002', async () => {
      for (const call of [
        () => t.rig.a.port.sendText(t.rig.b.account, 'x'),
        () => t.rig.a.port.conversations(10),
        () => t.rig.a.port.ping(),
      ]) {
        expect(await rejectionOf(call())).toMatchObject({ code: ImCode.linkLost });
      }
    });

    it('delivers text and custom messages both ways with every field', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atA = record(t.rig.a.port);
      const atB = record(t.rig.b.port);

      const ext = { extensionType: 'privateMsg', data: { price: 3 } };
      const sent = await t.rig.a.port.sendText(t.rig.b.account, 'hello', { ext });
      expect(sent).toMatchObject({
        from: t.rig.a.account, to: t.rig.b.account, sessionId: t.rig.b.account, scene: 'p2p', flow: 'out',
        type: 'text', text: 'hello', ext, status: 'sent',
      });
      expect(typeof sent.idServer).toBe('string');
      expect(sent.idServer).not.toBe('');
      expect(typeof sent.idClient).toBe('string');
      expect(typeof sent.time).toBe('number');
      const got = await eventually(() => messages(atB).find((m) => m.idServer === sent.idServer) ?? expect.fail('not yet'));
      expect(got).toEqual({ ...sent, flow: 'in', sessionId: t.rig.a.account });

      const attach = { attachType: 4, giftId: 7, giftNum: 2, giftImg: 'https://cdn.example/g.png' };
      const back = await t.rig.b.port.sendCustom(t.rig.a.account, attach, { ext: '{"extensionType":"friendMsg"}' });
      expect(back).toMatchObject({ type: 'custom', attach, ext: '{"extensionType":"friendMsg"}', flow: 'out' });
      const gotBack = await eventually(() => messages(atA).find((m) => m.idServer === back.idServer) ?? expect.fail('not yet'));
      expect(gotBack).toEqual({ ...back, flow: 'in', sessionId: t.rig.b.account });
    });

    it('gives every message its own idServer', async () => {
      await login(t.rig.a);
      const sent = [];
      for (let i = 0; i < 5; i++) sent.push(await t.rig.a.port.sendText(t.rig.b.account, `m${i}`));
      expect(new Set(sent.map((m) => m.idServer)).size).toBe(5);
      expect(new Set(sent.map((m) => m.idClient)).size).toBe(5);
    });

    it('stores a resend with the same idClient once and answers it with the stored message', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atB = record(t.rig.b.port);
      const first = await t.rig.a.port.sendText(t.rig.b.account, 'once', { idClient: 'dup-1' });
      const again = await t.rig.a.port.sendText(t.rig.b.account, 'once', { idClient: 'dup-1' });
      expect(again).toEqual(first);
      await eventually(() => expect(messages(atB)).toHaveLength(1));
      await settle();
      expect(messages(atB)).toHaveLength(1);
      expect(await t.rig.b.port.history(t.rig.a.account, { limit: 10 })).toHaveLength(1);
    });

    it('[§4] delivers what was sent while the peer was offline on its next login, in order and once', async () => {
      await login(t.rig.a);
      for (const text of ['one', 'two', 'three']) await t.rig.a.port.sendText(t.rig.b.account, text);
      await t.rig.a.port.sendNotification(t.rig.b.account, { kind: 'nudge', num: 30 });

      const atB = record(t.rig.b.port);
      await login(t.rig.b);
      await eventually(() => {
        expect(texts(atB)).toEqual(['one', 'two', 'three']);
        expect(atB.of('notification').map((e) => contentOf(e.notification.content))).toEqual([{ kind: 'nudge', num: 30 }]);
      });

      await t.rig.b.port.logout();
      await login(t.rig.b);
      await settle();
      expect(texts(atB)).toEqual(['one', 'two', 'three']);
      expect(atB.of('notification')).toHaveLength(1);
    });

    it('[§3 Chat session] counts unread messages per conversation; markRead clears them', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atB = record(t.rig.b.port);
      let last: ImMessage | undefined;
      for (const text of ['a', 'b', 'c']) last = await t.rig.a.port.sendText(t.rig.b.account, text);
      await eventually(() => expect(atB.of('unread').at(-1)?.total).toBe(3));

      const [conversation, ...others] = await t.rig.b.port.conversations(10);
      expect(others).toEqual([]);
      expect(conversation).toMatchObject({ id: t.rig.a.account, to: t.rig.a.account, unread: 3 });
      expect(conversation!.lastMsg).toMatchObject({ idServer: last!.idServer, text: 'c', flow: 'in' });
      expect(atB.of('conversation').at(-1)?.conversation).toMatchObject({ id: t.rig.a.account, unread: 3 });

      await t.rig.b.port.markRead(conversation!.id);
      expect((await t.rig.b.port.conversations(10))[0]).toMatchObject({ id: t.rig.a.account, unread: 0 });
      await eventually(() => expect(atB.of('unread').at(-1)?.total).toBe(0));
      // The sender's side of the conversation never counts its own messages.
      expect((await t.rig.a.port.conversations(10))[0]).toMatchObject({ id: t.rig.b.account, unread: 0 });
    });

    it('lists conversations newest first, at most `limit`', async () => {
      await login(t.rig.c);
      await t.rig.c.port.sendText(t.rig.b.account, 'from c');
      await login(t.rig.a);
      await t.rig.a.port.sendText(t.rig.b.account, 'from a');
      await login(t.rig.b);
      expect((await t.rig.b.port.conversations(10)).map((c) => c.id)).toEqual([t.rig.a.account, t.rig.c.account]);
      expect((await t.rig.b.port.conversations(1)).map((c) => c.id)).toEqual([t.rig.a.account]);
    });

    it('gives history newest first, at most `limit`, older than `before`, on both sides', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      for (let i = 0; i < 5; i++) await t.rig.a.port.sendText(t.rig.b.account, `t${i}`);

      const page = await t.rig.b.port.history(t.rig.a.account, { limit: 3 });
      expect(page.map((m) => m.text)).toEqual(['t4', 't3', 't2']);
      expect(page.every((m) => m.flow === 'in' && m.sessionId === t.rig.a.account)).toBe(true);
      const older = await t.rig.b.port.history(t.rig.a.account, { limit: 3, before: page.at(-1)!.time });
      expect(older.map((m) => m.text)).toEqual(['t1', 't0']);

      const mine = await t.rig.a.port.history(t.rig.b.account, { limit: 10 });
      expect(mine.map((m) => m.text)).toEqual(['t4', 't3', 't2', 't1', 't0']);
      expect(mine.every((m) => m.flow === 'out')).toBe(true);
    });

    it("clears the history of one account's side only", async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      await t.rig.a.port.sendText(t.rig.b.account, 'old 1');
      await t.rig.b.port.sendText(t.rig.a.account, 'old 2');
      await t.rig.a.port.clearHistory(t.rig.b.account);
      expect(await t.rig.a.port.history(t.rig.b.account, { limit: 10 })).toEqual([]);
      expect((await t.rig.b.port.history(t.rig.a.account, { limit: 10 })).map((m) => m.text)).toEqual(['old 2', 'old 1']);

      await t.rig.b.port.sendText(t.rig.a.account, 'new');
      expect((await t.rig.a.port.history(t.rig.b.account, { limit: 10 })).map((m) => m.text)).toEqual(['new']);
    });

    it('[§4 System messages] delivers custom notifications live, outside the history', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atB = record(t.rig.b.port);
      const content = { kind: 'typing', channelId: 'ch-1' };
      await t.rig.a.port.sendNotification(t.rig.b.account, content);
      const [event] = await eventually(() => {
        const got = atB.of('notification');
        expect(got).toHaveLength(1);
        return got;
      });
      expect(event!.notification).toMatchObject({ from: t.rig.a.account, to: t.rig.b.account });
      expect(typeof event!.notification.idServer).toBe('string');
      expect(contentOf(event!.notification.content)).toEqual(content);
      expect(await t.rig.b.port.history(t.rig.a.account, { limit: 10 })).toEqual([]);
      expect(messages(atB)).toEqual([]);
    });

    it('[§4 System messages] refuses a client\'s notification that is a system message (an attachType, however wrapped): only the server sends those', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atB = record(t.rig.b.port);
      const forged = { attachType: 44, code: 3 };
      for (const content of [forged, { attach: JSON.stringify(forged) }, { data: forged }]) {
        expect(await rejectionOf(t.rig.a.port.sendNotification(t.rig.b.account, content))).toBeInstanceOf(ImError);
      }
      await settle();
      expect(atB.of('notification')).toEqual([]);
    });

    it('[§8 7101] refuses a message to someone who blocked the sender', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atB = record(t.rig.b.port);
      await t.rig.block(t.rig.b.account, t.rig.a.account);
      const error = await rejectionOf(t.rig.a.port.sendText(t.rig.b.account, 'let me in'));
      expect(error).toBeInstanceOf(ImError);
      expect((error as ImError).code).toBe(ImCode.refused);
      await settle();
      expect(messages(atB)).toEqual([]);
      // Blocking is one way.
      await expect(t.rig.b.port.sendText(t.rig.a.account, 'bye')).resolves.toMatchObject({ text: 'bye' });
    });

    it('[§4] a second login of the same account kicks the first for good', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atFirst = record(t.rig.a.port);
      const second = t.rig.newPort();
      const atSecond = record(second);
      await second.login(t.rig.a.account, t.rig.a.token);

      await eventually(() => expect(atFirst.of('kicked')).toHaveLength(1));
      expect(await rejectionOf(t.rig.a.port.sendText(t.rig.b.account, 'from the old device'))).toBeInstanceOf(ImError);
      await t.rig.b.port.sendText(t.rig.a.account, 'to the new device');
      await eventually(() => expect(texts(atSecond)).toEqual(['to the new device']));
      await settle();
      expect(messages(atFirst)).toEqual([]);
      expect(atFirst.of('disconnected')).toEqual([]);
      expect(atSecond.of('kicked')).toEqual([]);
    });

    it('[§4] reports a dropped link; the next login brings what was missed, without loss or duplicates', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atB = record(t.rig.b.port);
      await t.rig.a.port.sendText(t.rig.b.account, 'before');
      await eventually(() => expect(texts(atB)).toEqual(['before']));

      await t.rig.dropLink(t.rig.b.account);
      await eventually(() => expect(atB.of('disconnected')).toHaveLength(1));
      expect(await rejectionOf(t.rig.b.port.ping())).toBeInstanceOf(ImError);
      expect(await rejectionOf(t.rig.b.port.sendText(t.rig.a.account, 'while down'))).toBeInstanceOf(ImError);
      await t.rig.a.port.sendText(t.rig.b.account, 'during 1');
      await t.rig.a.port.sendText(t.rig.b.account, 'during 2');

      await login(t.rig.b);
      await eventually(() => expect(texts(atB)).toEqual(['before', 'during 1', 'during 2']));
      await t.rig.a.port.sendText(t.rig.b.account, 'after');
      await eventually(() => expect(texts(atB)).toEqual(['before', 'during 1', 'during 2', 'after']));
      await settle();
      expect(new Set(messages(atB).map((m) => m.idServer)).size).toBe(4);
      expect(atB.of('kicked')).toEqual([]);
    });

    it('[§4] a resend after a reconnect returns the stored message, never a second copy', async () => {
      await login(t.rig.a);
      await login(t.rig.b);
      const atB = record(t.rig.b.port);
      const first = await t.rig.a.port.sendText(t.rig.b.account, 'retry me', { idClient: 'retry-1' });
      await t.rig.dropLink(t.rig.a.account);
      await eventually(() => expect(rejectionOf(t.rig.a.port.ping())).resolves.toBeInstanceOf(ImError));
      await login(t.rig.a);
      const again = await t.rig.a.port.sendText(t.rig.b.account, 'retry me', { idClient: 'retry-1' });
      expect(again.idServer).toBe(first.idServer);
      await settle();
      expect(messages(atB).filter((m) => m.idClient === 'retry-1')).toHaveLength(1);
    });

    it('[§9 heartbeat] ping answers while logged in and fails after logout', async () => {
      await login(t.rig.a);
      await expect(t.rig.a.port.ping()).resolves.toBeUndefined();
      await t.rig.a.port.logout();
      expect(await rejectionOf(t.rig.a.port.ping())).toMatchObject({ code: ImCode.linkLost });
    });
  });
}
