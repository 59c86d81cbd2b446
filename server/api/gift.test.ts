import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttachType } from '../../machines/system-messages/system-messages';
import { MESSAGE_DIAMOND_NOT_ENOUGH, MESSAGE_NO_MATCH_USER, ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import {
  ASK_GIFT_ATTACH_TYPE, ASK_GIFT_COOLDOWN_MS, POPULAR_CATEGORY, TEXT_ASK_HOSTS_ONLY, TEXT_ASK_NOT_FOUND, TEXT_GIFT_HOSTS_ONLY,
  TEXT_GIFT_NOT_FOUND, TEXT_GIFT_NOT_IN_CALL, TEXT_GIFT_TO_SELF,
} from '../../src/api/contract/gift';
import { callWorld, noticesOf } from '../testing/calls';
import { SYSTEM_SENDER_ACCID } from '../../machines/system-messages/system-sender';
import { TEXT_INVALID_REQUEST } from './transport';

const { getGiftList, sendGift, askForGift, refuseAskGift, createCall, joinCall, endCall, callRecordDetail } = endpoints;

const world = callWorld({
  seed: { hosts: 3, users: 4 },
  signIn: ['host1', 'host2', 'host3', 'user1', 'user2', 'user3'],
  present: ['host1', 'host2', 'host3'],
});
const { p } = world;

afterEach(() => {
  vi.useRealTimers();
});

const as = (name: string) => ({ token: p[name]!.token });
const wallet = (userId: number) =>
  world.db.prepare<[number], { diamonds: number; income: number }>('SELECT diamonds, income FROM wallets WHERE user_id = ?').get(userId)
  ?? { diamonds: 0, income: 0 };
const setDiamonds = (name: string, diamonds: number) => world.rw.prepare('UPDATE wallets SET diamonds = ? WHERE user_id = ?').run(diamonds, p[name]!.userId);

async function connect(user: string, host: string): Promise<string> {
  const created = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: p[host]!.userId, callType: 0 }, as(user));
  expect(created.code, created.message).toBe(ResultCode.success);
  expect((await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: created.data!.channelId }, as(host))).code).toBe(ResultCode.success);
  return created.data!.channelId;
}

describe('[§7] /api/gift/v2/getGiftList', () => {
  it('answers the gifts grouped by category, Popular first, each with same-origin pictures', async () => {
    const res = await world.server.call(getGiftList, {}, as('user1'));
    expect(res.code).toBe(ResultCode.success);
    const list = res.data!.giftList;
    expect(list.map((c) => c.categoryName)).toEqual([POPULAR_CATEGORY, 'Classic', 'Luxury', 'Fun']);
    expect(list[0]!.gifts.map((g) => g.name)).toEqual(['Rose', 'Heart', 'Lollipop', 'Teddy Bear', 'Diamond Ring', 'Rocket']);
    expect(list[0]!.gifts[0]).toEqual({ id: 1, name: 'Rose', giftPrice: 1, giftSmallImg: '/gifts/rose-small.svg', giftIcon: '/gifts/rose.svg' });
    for (const category of list) {
      const prices = category.gifts.map((g) => g.giftPrice);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
    }
    const all = new Set(list.flatMap((c) => c.gifts.map((g) => g.id)));
    expect(all.size).toBe(14);

    for (const url of ['/gifts/rose-small.svg', '/gifts/castle.svg']) {
      const picture = await fetch(world.server.base + url);
      expect(picture.status).toBe(200);
      expect(picture.headers.get('content-type')).toContain('image/svg+xml');
      expect(await picture.text()).toMatch(/^<svg /);
    }
    expect((await fetch(world.server.base + '/gifts/unknown.svg')).status).toBe(404);
  });

  it('[§5] keeps the gifts priced within the optional min and max, leaving out emptied categories', async () => {
    const cheap = (await world.server.call(getGiftList, { maxPrice: 20 }, as('user1'))).data!.giftList;
    expect(cheap.flatMap((c) => c.gifts).every((g) => g.giftPrice <= 20)).toBe(true);
    expect(cheap.map((c) => c.categoryName)).toEqual([POPULAR_CATEGORY, 'Classic', 'Fun']);
    const band = (await world.server.call(getGiftList, { minPrice: 99, maxPrice: 999 }, as('user1'))).data!.giftList;
    expect([...new Set(band.flatMap((c) => c.gifts.map((g) => g.giftPrice)))].sort((a, b) => a - b)).toEqual([99, 199, 520, 999]);
    expect((await world.server.call(getGiftList, { minPrice: 100_000 }, as('user1'))).data!.giftList).toEqual([]);
    expect(await world.server.call(getGiftList, { minPrice: -1 } as never, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
  });
});

describe('/api/gift/send', () => {
  it('takes price × num from the sender, adds it to the host\'s income and tells the host (18)', async () => {
    const before = { user: wallet(p.user1!.userId).diamonds, host: wallet(p.host2!.userId).income };
    const res = await world.server.call(sendGift, { idempotencyKey: randomUUID(), toUserId: p.host2!.userId, giftId: 3, giftNum: 7 }, as('user1'));
    expect(res.data).toEqual({ giftId: 3, giftNum: 7, giftImg: '/gifts/kiss.svg', value: 70, balance: before.user - 70 });
    expect(wallet(p.user1!.userId).diamonds).toBe(before.user - 70);
    expect(wallet(p.host2!.userId).income).toBe(before.host + 70);
    expect(noticesOf(world.db, p.host2!.yxAccid, AttachType.giftIncome).at(-1)).toMatchObject({
      from_accid: SYSTEM_SENDER_ACCID, content: { attachType: 18, num: 70, giftId: 3, giftNum: 7 },
    });
    // Outside a call there is no "gift received in call" (4).
    expect(noticesOf(world.db, p.host2!.yxAccid, AttachType.giftReceivedInCall)).toEqual([]);
  });

  it('[§8 1080] refuses a short balance and takes nothing', async () => {
    setDiamonds('user3', 98);
    const before = { host: wallet(p.host2!.userId).income, sends: world.db.prepare('SELECT count(*) FROM gift_sends').pluck().get() };
    expect(await world.server.call(sendGift, { idempotencyKey: randomUUID(), toUserId: p.host2!.userId, giftId: 5, giftNum: 1 }, as('user3')))
      .toEqual({ code: ResultCode.balanceInsufficient, message: MESSAGE_DIAMOND_NOT_ENOUGH });
    expect(wallet(p.user3!.userId).diamonds).toBe(98);
    expect(wallet(p.host2!.userId).income).toBe(before.host);
    expect(world.db.prepare('SELECT count(*) FROM gift_sends').pluck().get()).toBe(before.sends);
    // 98 pays for 98 roses exactly, and then nothing more.
    expect((await world.server.call(sendGift, { idempotencyKey: randomUUID(), toUserId: p.host2!.userId, giftId: 1, giftNum: 98 }, as('user3'))).data!.balance).toBe(0);
    expect((await world.server.call(sendGift, { idempotencyKey: randomUUID(), toUserId: p.host2!.userId, giftId: 1, giftNum: 1 }, as('user3'))).code).toBe('1080');
  });

  it('[§5] takes a quantity from 1 to 99, integer; gifts go to hosts other than oneself', async () => {
    for (const giftNum of [0, 100, 1.5, -1]) {
      expect(await world.server.call(sendGift, { idempotencyKey: randomUUID(), toUserId: p.host2!.userId, giftId: 1, giftNum }, as('user1')))
        .toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
    }
    expect((await world.server.call(sendGift, { idempotencyKey: randomUUID(), toUserId: p.host2!.userId, giftId: 1, giftNum: 99 }, as('user1'))).data!.value).toBe(99);
    const refusals: [string, { toUserId: number; giftId: number }, string][] = [
      ['user1', { toUserId: p.user2!.userId, giftId: 1 }, TEXT_GIFT_HOSTS_ONLY],
      ['host1', { toUserId: p.host1!.userId, giftId: 1 }, TEXT_GIFT_TO_SELF],
      ['user1', { toUserId: 999_999, giftId: 1 }, MESSAGE_NO_MATCH_USER],
      ['user1', { toUserId: p.host2!.userId, giftId: 999 }, TEXT_GIFT_NOT_FOUND],
    ];
    for (const [from, body, message] of refusals) {
      expect(await world.server.call(sendGift, { idempotencyKey: randomUUID(), ...body, giftNum: 1 }, as(from))).toEqual({ code: ResultCode.invalidRequest, message });
    }
  });

  it('[§4 4, 18] in a call: adds to the call\'s gift income and tells the host of the gift received', async () => {
    const channelId = await connect('user1', 'host1');
    const res = await world.server.call(sendGift, { idempotencyKey: randomUUID(), channelId, toUserId: p.host1!.userId, giftId: 2, giftNum: 3 }, as('user1'));
    expect(res.data).toMatchObject({ value: 15, callGiftIncome: 15 });
    await world.server.call(sendGift, { idempotencyKey: randomUUID(), channelId, toUserId: p.host1!.userId, giftId: 1, giftNum: 4 }, as('user1'));
    expect((await world.server.call(callRecordDetail, { searchValue: channelId }, as('host1'))).data).toMatchObject({ callGiftIncome: 19 });
    expect(noticesOf(world.db, p.host1!.yxAccid, AttachType.giftReceivedInCall).map((n) => n.content)).toEqual([
      { attachType: 4, giftId: 2, giftImg: '/gifts/heart.svg', giftNum: 3, giftName: 'Heart', channelId, fromYxAccid: p.user1!.yxAccid, fromNick: 'Alex' },
      { attachType: 4, giftId: 1, giftImg: '/gifts/rose.svg', giftNum: 4, giftName: 'Rose', channelId, fromYxAccid: p.user1!.yxAccid, fromNick: 'Alex' },
    ]);
    expect(noticesOf(world.db, p.host1!.yxAccid, AttachType.giftIncome).slice(-2).map((n) => n.content.num)).toEqual([15, 4]);
    // Not a party, another host, or an ended call: refused, nothing taken.
    expect(await world.server.call(sendGift, { idempotencyKey: randomUUID(), channelId, toUserId: p.host1!.userId, giftId: 1, giftNum: 1 }, as('user2')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_GIFT_NOT_IN_CALL });
    expect(await world.server.call(sendGift, { idempotencyKey: randomUUID(), channelId, toUserId: p.host2!.userId, giftId: 1, giftNum: 1 }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_GIFT_NOT_IN_CALL });
    await world.server.call(endCall, { channelId, hangupReason: 1 }, as('user1'));
    const balance = wallet(p.user1!.userId).diamonds;
    expect(await world.server.call(sendGift, { idempotencyKey: randomUUID(), channelId, toUserId: p.host1!.userId, giftId: 1, giftNum: 1 }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_GIFT_NOT_IN_CALL });
    expect(wallet(p.user1!.userId).diamonds).toBe(balance);
  });
});

describe('/api/gift/askFor and /api/gift/refuseAsk', () => {
  it('[§5 15 s] lets the host ask the user of the call, once per cooldown; the user may refuse (16)', async () => {
    const channelId = await connect('user2', 'host3');
    const userIm = await world.people.im(p.user2!);
    const asked = await world.server.call(askForGift, { beAskYxAccid: p.user2!.yxAccid, giftId: 11 }, as('host3'));
    expect(asked.code).toBe(ResultCode.success);
    const { askId, nextAskAt } = asked.data!;
    expect(asked.data!.channelId).toBe(channelId);
    expect(nextAskAt - Date.now()).toBeGreaterThan(ASK_GIFT_COOLDOWN_MS - 2000);
    const notice = {
      attachType: ASK_GIFT_ATTACH_TYPE, askId, channelId, giftId: 11, giftName: 'Diamond Ring', giftImg: '/gifts/ring.svg',
      giftPrice: 520, fromYxAccid: p.host3!.yxAccid, fromNick: 'Lina',
    };
    expect(noticesOf(world.db, p.user2!.yxAccid, ASK_GIFT_ATTACH_TYPE).at(-1)!.content).toEqual(notice);
    await vi.waitFor(() => expect(userIm.pushes.some((push) => push.type === 'notification'
      && (push.notification as { content: { askId?: number } }).content.askId === askId)).toBe(true));

    const again = await world.server.call(askForGift, { beAskYxAccid: p.user2!.yxAccid, giftId: 1 }, as('host3'));
    expect(again.code).toBe(ResultCode.invalidRequest);
    expect(again.message).toMatch(/^Please wait 1[45] s before asking for another gift\.$/);

    expect(await world.server.call(refuseAskGift, { askId }, as('host3'))).toEqual({ code: ResultCode.invalidRequest, message: TEXT_ASK_NOT_FOUND });
    expect((await world.server.call(refuseAskGift, { askId }, as('user2'))).data).toEqual({ refused: true });
    expect(noticesOf(world.db, p.host3!.yxAccid, AttachType.askGiftRefused).map((n) => n.content))
      .toEqual([{ attachType: 16, askId, channelId, giftId: 11 }]);
    // Refusing again pushes nothing.
    expect((await world.server.call(refuseAskGift, { askId }, as('user2'))).data).toEqual({ refused: false });
    expect(noticesOf(world.db, p.host3!.yxAccid, AttachType.askGiftRefused)).toHaveLength(1);

    // After the cooldown the host may ask again; a gift sent for the ask fulfils it (refusing it then does nothing).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ASK_GIFT_COOLDOWN_MS });
    const later = await world.server.call(askForGift, { beAskYxAccid: p.user2!.yxAccid, giftId: 2 }, as('host3'));
    expect(later.code).toBe(ResultCode.success);
    vi.useRealTimers();
    await world.server.call(sendGift, { idempotencyKey: randomUUID(), channelId, toUserId: p.host3!.userId, giftId: 2, giftNum: 1 }, as('user2'));
    expect((await world.server.call(refuseAskGift, { askId: later.data!.askId }, as('user2'))).data).toEqual({ refused: false });
    await world.server.call(endCall, { channelId, hangupReason: 1 }, as('host3'));
  });

  it('refuses a user asking, a host not in a call with that user, and an unknown gift', async () => {
    expect(await world.server.call(askForGift, { beAskYxAccid: p.host1!.yxAccid, giftId: 1 }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_ASK_HOSTS_ONLY });
    expect(await world.server.call(askForGift, { beAskYxAccid: p.user1!.yxAccid, giftId: 1 }, as('host2')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_GIFT_NOT_IN_CALL });
    const channelId = await connect('user1', 'host2');
    expect(await world.server.call(askForGift, { beAskYxAccid: p.user2!.yxAccid, giftId: 1 }, as('host2')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_GIFT_NOT_IN_CALL });
    expect(await world.server.call(askForGift, { beAskYxAccid: p.user1!.yxAccid, giftId: 999 }, as('host2')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_GIFT_NOT_FOUND });
    expect(await world.server.call(askForGift, { beAskYxAccid: 'yx-nobody', giftId: 1 }, as('host2')))
      .toEqual({ code: ResultCode.invalidRequest, message: MESSAGE_NO_MATCH_USER });
    await world.server.call(endCall, { channelId, hangupReason: 1 }, as('host2'));
  });
});
