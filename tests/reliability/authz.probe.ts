/**
 * The authorization matrix: every endpoint and hub op that acts on someone's resource (orders
 * and the user's wallet too; money out's nine endpoints as a user and a visitor, and another
 * host's collection method), tried as the wrong person, as a visitor (SPEC §6: login and
 * register only) and with a session that logged out; and the dev shell's powers (a session
 * for any account, ending any live, faults) on a server started in production mode. An
 * action counts as refused when it had no effect: a write changed nothing (read back from the
 * database or from the party's socket), a read disclosed nothing (no success answer), an op
 * got no `ok`.
 *
 * Bound: every cross-user action refused.
 */
import { randomBytes } from 'node:crypto';
import { endpoints } from '../../src/api/contract';
import { RealtimePath } from '../../src/api/contract/realtime';
import {
  api, apiData, clientAddress, dropAgents, hostAccount, hubSocket, send, signIn, userAccount, visitor, type HubSocket, type Person,
} from './client';
import { Bounds, n, sleep, type Probe } from './probe';
import { connectCall, goLive, intentKey, present } from './scenes';
import { startServer, type ProbeServer } from './server';

interface Attempt {
  action: string;
  as: 'user' | 'host' | 'visitor' | 'logged out' | 'anyone';
  through: boolean;
}

/** How long a push that should not come is waited for. */
const PUSH_WAIT_MS = 400;

const ok = (answer: { envelope?: { code: string } | undefined }) => answer.envelope?.code === '0000';

export const authzProbe: Probe = {
  name: 'authz',
  summary: "every cross-user action (calls, gifts, asks, secret messages, orders and wallets, money out, hub notify/signal/chat/rtc, logged-out sockets, visitors, production shell) refused",
  budgetSeconds: { light: 60, full: 120 },
  async run({ checkout, note }) {
    const attempts: Attempt[] = [];
    const server = await startServer({
      checkout, env: { SEED_HOSTS: '6', SEED_USERS: '6', CALL_RING_TIMEOUT_MS: '300000', CALL_BILLING_PERIOD_MS: '60000' },
    });
    try {
      await crossUser(server, attempts, note);
    } finally {
      dropAgents();
      await server.stop();
    }
    note('production mode');
    await productionShell(checkout, attempts);

    const through = attempts.filter((a) => a.through);
    const visitorTries = attempts.filter((a) => a.as === 'visitor').length;
    const bounds = new Bounds();
    const named = through.slice(0, 8).map((a) => `${a.action} (${a.as})`).join('; ');
    bounds.check(through.length === 0, `${through.length} got through: ${named}${through.length > 8 ? `; and ${through.length - 8} more` : ''}`);
    return {
      figures: `${n(attempts.length)} actions tried (${visitorTries} as a visitor), ${n(attempts.length - through.length)} refused, ${n(through.length)} got through`,
      broken: bounds.broken,
      numbers: { tried: attempts.length, refused: attempts.length - through.length, through: through.length },
    };
  },
};

async function crossUser(server: ProbeServer, attempts: Attempt[], note: (text: string) => void): Promise<void> {
  const base = server.base;
  const db = server.readDb();
  const callStatus = db.prepare<[string], number>('SELECT status FROM calls WHERE channel_id = ?').pluck();
  const askState = db.prepare<[number], number>('SELECT state FROM gift_asks WHERE id = ?').pluck();
  const diamonds = db.prepare<[number], number>('SELECT coalesce((SELECT diamonds FROM wallets WHERE user_id = ?), 0)').pluck();
  const tried = (action: string, as: Attempt['as'], through: boolean) => attempts.push({ action, as, through });

  const [a, b, c, d, e] = await Promise.all([1, 2, 3, 4, 5].map((i) => signIn(base, userAccount(i), clientAddress(i))));
  const [h1, h2, h3, h4] = await Promise.all([1, 2, 3, 4].map((i) => signIn(base, hostAccount(i), clientAddress(100 + i))));
  const v = await visitor(base, 'authz-visitor-device', clientAddress(50));
  const sockets: HubSocket[] = [];
  const keep = (s: HubSocket) => (sockets.push(s), s);
  try {
    for (const host of [h1!, h3!, h4!]) keep(await present(base, host));
    const call1 = await connectCall(base, a!, h1!);
    const ringing = await apiData<{ channelId: string }>(
      base, endpoints.createCall, { beCallUserId: h3!.userId, callType: 0, idempotencyKey: intentKey() }, e!.token, { from: e!.from },
    );
    const live = await goLive(base, h2!);
    const ask = await apiData<{ askId: number }>(base, endpoints.askForGift, { beAskYxAccid: a!.yxAccid, giftId: 1 }, h1!.token, { from: h1!.from });
    const secret = await apiData<{ id: number }>(
      base, endpoints.uploadPrivateInfo, { to: a!.yxAccid, price: 5, content: 'For A only' }, h1!.token, { from: h1!.from },
    );
    note('set up: a call, a ringing call, a live room, an ask, a secret message');

    // ---- gifts ----
    const bBefore = diamonds.get(b!.userId)!;
    const inOthersCall = await api(base, endpoints.sendGift.path, {
      channelId: call1.channelId, toUserId: h1!.userId, giftId: 1, giftNum: 1, idempotencyKey: intentKey(),
    }, b!.token, { from: b!.from });
    tried("gift in a call one is not in", 'user', ok(inOthersCall) || diamonds.get(b!.userId) !== bBefore);
    const askedOthers = await api(base, endpoints.askForGift.path, { beAskYxAccid: a!.yxAccid, giftId: 2 }, h3!.token, { from: h3!.from });
    tried("ask a gift in another host's call", 'host', ok(askedOthers));
    await api(base, endpoints.refuseAskGift.path, { askId: ask.askId }, b!.token, { from: b!.from });
    tried("refuse an ask made to another", 'user', askState.get(ask.askId) !== 0);
    const visitorGift = await api(base, endpoints.sendGift.path, { toUserId: h4!.userId, giftId: 1, giftNum: 1, idempotencyKey: intentKey() }, v.token, { from: v.from });
    tried('send a gift', 'visitor', ok(visitorGift));

    // ---- secret messages ----
    for (const [who, as] of [[b!, 'user'], [v, 'visitor']] as const) {
      const read = await api(base, endpoints.privateInfo.path, { id: secret.id }, who.token, { from: who.from });
      tried("read another's secret message", as, ok(read));
      const paid = await api(base, endpoints.privateInfo.path, { id: secret.id, pay: true, idempotencyKey: intentKey() }, who.token, { from: who.from });
      tried("pay for another's secret message", as, ok(paid));
    }
    const userSecret = await api(base, endpoints.uploadPrivateInfo.path, { to: h1!.yxAccid, price: 5, content: 'x' }, b!.token, { from: b!.from });
    tried('send a secret message (hosts only)', 'user', ok(userSecret));

    // ---- orders and the user's wallet ----
    const packages = await apiData<{ list: { subRechargeListItemVOList: { payMethodType: string; productId: string; channelId: number; countryTypeId: number }[] }[] }>(
      base, endpoints.rechargeListV4, {}, a!.token, { from: a!.from },
    );
    const usdt = packages.list[0]!.subRechargeListItemVOList.find((ch) => ch.payMethodType === 'usdt')!;
    const aOrder = await apiData<{ orderCode: string }>(base, endpoints.createOrder, {
      frontCallbackUrl: '/wallet', paymentMethodType: 'usdt', productId: usdt.productId, channelId: usdt.channelId,
      countryTypeId: usdt.countryTypeId, vipFlag: false, chainName: 'TRC20', idempotencyKey: intentKey(),
    }, a!.token, { from: a!.from });
    const othersStat = await api(base, endpoints.queryUsdtOrderStat.path, { searchValue: aOrder.orderCode }, b!.token, { from: b!.from });
    tried("read another's order status", 'user', ok(othersStat));
    const bOrders = await api(base, endpoints.orderList.path, { currentPage: 1, pageSize: 50 }, b!.token, { from: b!.from });
    tried("see another's order in one's order list", 'user', JSON.stringify(bOrders.envelope?.data ?? null).includes(aOrder.orderCode));
    for (const endpoint of [endpoints.myWallet, endpoints.orderList, endpoints.flowList]) {
      const read = await api(base, endpoint.path, endpoint === endpoints.myWallet ? {} : { currentPage: 1, pageSize: 10 }, v.token, { from: v.from });
      tried(`read a wallet (${endpoint.path})`, 'visitor', ok(read));
    }

    // ---- money out: hosts only, each host's own methods ----
    const bank = { kind: 'bank', holderName: 'Authz Probe', institution: 'Probe Bank', chain: '' };
    const withdrawCalls: [string, string, Record<string, unknown>][] = [
      ['read the income balance', endpoints.myBalance.path, {}],
      ['read the income ledger', endpoints.incomeFlowList.path, { currentPage: 1, pageSize: 10 }],
      ["read a host's wallet", endpoints.hostWallet.path, {}],
      ['list collection methods', endpoints.withdrawAccountList.path, {}],
      ['add a collection method', endpoints.addWithdrawAccount.path, { ...bank, accountNumber: 'PROBE0000001' }],
      ['read the withdrawal rules', endpoints.getAnchorWithDrawConfig.path, {}],
      ['set a withdrawal password', endpoints.setWithdrawPassWord.path, { password: '135790' }],
      ['apply for a withdrawal', endpoints.applyWithdrawV2.path, { idempotencyKey: intentKey(), amount: 1000, accountId: 1, password: '135790' }],
      ['read withdrawal records', endpoints.withdrawRecord.path, { currentPage: 1, pageSize: 10 }],
    ];
    for (const [action, path, body] of withdrawCalls) {
      for (const [who, as] of [[b!, 'user'], [v, 'visitor']] as const) {
        tried(`${action} (hosts only)`, as, ok(await api(base, path, body, who.token, { from: who.from })));
      }
    }
    const h1Method = await apiData<{ account: { id: number } }>(
      base, endpoints.addWithdrawAccount, { ...bank, accountNumber: 'PROBE0000002' }, h1!.token, { from: h1!.from },
    );
    await apiData(base, endpoints.setWithdrawPassWord, { password: '135790' }, h3!.token, { from: h3!.from });
    const h3Methods = await api(base, endpoints.withdrawAccountList.path, {}, h3!.token, { from: h3!.from });
    tried("see another host's collection method", 'host', JSON.stringify(h3Methods.envelope?.data ?? null).includes('PROBE'));
    const withdrawn = await api(base, endpoints.applyWithdrawV2.path, {
      idempotencyKey: intentKey(), amount: 1000, accountId: h1Method.account.id, password: '135790',
    }, h3!.token, { from: h3!.from });
    tried("withdraw to another host's collection method", 'host', ok(withdrawn));

    // ---- hosts' powers and visitors ----
    const userLive = await api(base, endpoints.beginLiveRoom.path, { title: 'Not a host', privateCallOpen: false }, b!.token, { from: b!.from });
    tried('go live (hosts only)', 'user', ok(userLive));
    const userList = await api(base, endpoints.anchorGetUserList.path, { currentPage: 1, pageSize: 10 }, b!.token, { from: b!.from });
    tried("list users (hosts only)", 'user', ok(userList));
    const followed = await api(base, endpoints.followUser.path, { beFollowUserId: h4!.userId, follow: true }, v.token, { from: v.from });
    tried('follow a host', 'visitor', ok(followed));
    const called = await api(base, endpoints.createCall.path, { beCallUserId: h4!.userId, callType: 0, idempotencyKey: intentKey() }, v.token, { from: v.from });
    tried('call a host', 'visitor', ok(called));

    // ---- the hub ----
    const h1Im = keep(await hubSocket(base, RealtimePath.im, { from: h1!.from }));
    await h1Im.call('login', { account: h1!.yxAccid, token: h1!.imToken });
    const aIm = keep(await hubSocket(base, RealtimePath.im, { from: a!.from }));
    await aIm.call('login', { account: a!.yxAccid, token: a!.imToken });
    const bIm = keep(await hubSocket(base, RealtimePath.im, { from: b!.from }));
    await bIm.call('login', { account: b!.yxAccid, token: b!.imToken });
    const fromB = (socket: HubSocket) => socket.pushes.some((p) => JSON.stringify(p).includes(b!.yxAccid));

    /** Whether B's notification reached `to` (or the hub accepted it). */
    const notified = async (to: HubSocket, account: string, content: Record<string, unknown>) => {
      to.pushes.length = 0;
      const reply = await bIm.ask('notify', { to: account, content });
      await sleep(PUSH_WAIT_MS);
      return reply?.ok === true || fromB(to);
    };
    tried('notify a system message (44: end a live)', 'user',
      await notified(h1Im, h1!.yxAccid, { attachType: 44, code: 3, agoraChannelId: live.agoraChannelId, yxRoomId: live.yxRoomId }));
    tried('notify a system message (-3: refuse a call)', 'user', await notified(aIm, a!.yxAccid, { attachType: -3, type: 1, channelId: call1.channelId }));
    tried('notify a system message (15: call income)', 'user', await notified(h1Im, h1!.yxAccid, { attachType: 15, num: 100000 }));
    tried('notify a system message (99: crypto payment)', 'user', await notified(aIm, a!.yxAccid, { attachType: 99, orderNo: 'forged', status: 1 }));

    const rtm = async (p: Person) => (await apiData<{ rtmToken: string; rtcToken: string }>(base, endpoints.getAgoraRtmToken, {}, p.token, { from: p.from }));
    const [h1Tokens, bTokens, aTokens] = await Promise.all([rtm(h1!), rtm(b!), rtm(a!)]);
    const h1Signal = keep(await hubSocket(base, RealtimePath.signal, { from: h1!.from }));
    await h1Signal.call('login', { account: h1!.yxAccid, token: h1Tokens.rtmToken });
    const bSignal = keep(await hubSocket(base, RealtimePath.signal, { from: b!.from }));
    await bSignal.call('login', { account: b!.yxAccid, token: bTokens.rtmToken });
    const hangup = await bSignal.ask('send', { to: h1!.yxAccid, action: 4, channelId: call1.channelId });
    await sleep(PUSH_WAIT_MS);
    tried("signal a hang-up into another's call", 'user', hangup?.ok === true || h1Signal.pushes.length > 0);

    // Live chat: C watches; B posts an unpaid gift line and enters under the host's nickname.
    const cRoom = keep(await hubSocket(base, RealtimePath.chatroom, { from: c!.from }));
    await cRoom.call('enter', { roomId: live.yxRoomId, account: c!.yxAccid, token: c!.imToken, nick: c!.nickname });
    const bRoom = keep(await hubSocket(base, RealtimePath.chatroom, { from: b!.from }));
    const entered = await bRoom.ask('enter', { roomId: live.yxRoomId, account: b!.yxAccid, token: b!.imToken, nick: h2!.nickname });
    const giftLine = await bRoom.ask('send', {
      roomId: live.yxRoomId, attach: { giftId: 9, giftName: 'fireworks', giftNum: 99, giftPrice: 9999, giftImg: '/gifts/fireworks.svg', sendId: 1 },
    });
    await bRoom.ask('send', { roomId: live.yxRoomId, text: 'Hello from the host' });
    const gag = await bRoom.ask('setGagged', { roomId: live.yxRoomId, account: c!.yxAccid, gagged: true });
    await sleep(PUSH_WAIT_MS);
    const cSaw = cRoom.pushes as { type?: string; message?: { from?: string; fromNick?: string; attach?: Record<string, unknown> }; member?: { account?: string; nick?: string } }[];
    tried('post an unpaid gift line in a live room', 'user',
      giftLine?.ok === true && cSaw.some((p) => p.message?.from === b!.yxAccid && p.message.attach?.giftId !== undefined));
    tried("speak in a live room under the host's nickname", 'user', entered?.ok === true
      && cSaw.some((p) => (p.message?.from === b!.yxAccid && p.message.fromNick === h2!.nickname)
        || (p.member?.account === b!.yxAccid && p.member.nick === h2!.nickname)));
    tried("gag someone in another host's live room", 'user', gag?.ok === true);

    // WebRTC relay: B takes the host's seat of H2's live channel, and a third seat in A's call.
    const bRtc = keep(await hubSocket(base, RealtimePath.rtc, { from: b!.from }));
    const asHost = await bRtc.ask('join', { channelId: live.agoraChannelId, account: b!.yxAccid, token: bTokens.rtcToken, role: 'host' });
    tried("join a host's live channel as its host", 'user', asHost?.ok === true);
    const aRtc = keep(await hubSocket(base, RealtimePath.rtc, { from: a!.from }));
    await aRtc.ask('join', { channelId: call1.channelId, account: a!.yxAccid, token: aTokens.rtcToken });
    const bRtc2 = keep(await hubSocket(base, RealtimePath.rtc, { from: b!.from }));
    const intoCall = await bRtc2.ask('join', { channelId: call1.channelId, account: b!.yxAccid, token: bTokens.rtcToken });
    tried("join another's call channel", 'user', intoCall?.ok === true);

    // A visitor chats with a host.
    const vIm = keep(await hubSocket(base, RealtimePath.im, { from: v.from }));
    const vLogin = await vIm.ask('login', { account: v.yxAccid, token: v.imToken });
    const vSend = vLogin?.ok ? await vIm.ask('send', { to: h4!.yxAccid, idClient: randomBytes(8).toString('hex'), type: 'text', text: 'Hi' }) : null;
    tried('chat with a host', 'visitor', vSend?.ok === true);

    // Logout: the session's sockets close and its IM token stops working.
    const dPresence = keep(await present(base, d!));
    const dIm = keep(await hubSocket(base, RealtimePath.im, { from: d!.from }));
    await dIm.call('login', { account: d!.yxAccid, token: d!.imToken });
    await apiData(base, endpoints.logout, {}, d!.token, { from: d!.from });
    await sleep(PUSH_WAIT_MS);
    const presenceAfter = await dPresence.ask('status', { code: 10002 }, 2000);
    tried("a presence socket acts after its session's logout", 'logged out', presenceAfter?.ok === true);
    const imAfter = await dIm.ask('send', { to: h4!.yxAccid, idClient: randomBytes(8).toString('hex'), type: 'text', text: 'after logout' }, 2000);
    tried("an IM socket sends after its session's logout", 'logged out', imAfter?.ok === true);
    const dIm2 = keep(await hubSocket(base, RealtimePath.im, { from: d!.from }));
    const oldToken = await dIm2.ask('login', { account: d!.yxAccid, token: d!.imToken });
    tried('IM login with the token of a logged-out session', 'logged out', oldToken?.ok === true);
    // ---- calls (last: ending the call would hide what the others try in it) ----
    for (const [who, as] of [[b!, 'user'], [v, 'visitor']] as const) {
      await api(base, endpoints.endCall.path, { channelId: call1.channelId, hangupReason: 1 }, who.token, { from: who.from });
      tried("end another's call", as, callStatus.get(call1.channelId) !== 3);
      const joined = await api(base, endpoints.joinCall.path, { searchValue: ringing.channelId, idempotencyKey: intentKey() }, who.token, { from: who.from });
      tried('take a call made to another', as, ok(joined) || callStatus.get(ringing.channelId) !== 1);
    }
    const rated = await api(base, endpoints.callRate.path, {
      channelId: call1.channelId, callType: 0, category: 1, answerTime: 0, userType: 1, abnormal: 1,
    }, b!.token, { from: b!.from });
    tried("rate another's call", 'user', ok(rated));
    const detail = await api(base, endpoints.callRecordDetail.path, { channelId: call1.channelId }, b!.token, { from: b!.from });
    tried("read another's call record", 'user', ok(detail));
    const terms = await api(base, endpoints.callTerms.path, { searchValue: call1.channelId }, b!.token, { from: b!.from });
    tried("read another's call terms (price and balance)", 'user', ok(terms));
  } finally {
    for (const socket of sockets) socket.close();
  }
}

/** The dev shell's routes on a server started in production mode (on a new database, as production requires). */
async function productionShell(checkout: string, attempts: Attempt[]): Promise<void> {
  const key = randomBytes(8).toString('hex');
  const iv = randomBytes(8).toString('hex');
  const server = await startServer({ checkout, env: { NODE_ENV: 'production', AES_KEY: key, AES_IV: iv } });
  try {
    const shell: [string, string, unknown][] = [
      ['open a session for any account', '/shell/api/open', { userId: 100001 }],
      ['list every account', '/shell/api/accounts', undefined],
      ["end any host's live", '/shell/api/live/forceEnd', { userId: 100001 }],
      ['boost any host', '/shell/api/live/boost', { userId: 100001, on: true }],
      ['gag anyone in every room', '/shell/api/live/serviceGag', { userId: 100001, gagged: true }],
      ['inject faults', '/shell/api/faults', { baseConfigFailures: 5 }],
      ["cut anyone's sockets", '/shell/api/drop', { userId: 100001 }],
      ['open a visitor session', '/shell/api/visitor', {}],
      ["list every host's withdrawals", '/shell/api/withdrawals', undefined],
      ['refuse a withdrawal (its amount back to the income)', '/shell/api/withdrawals/move', { id: 1, to: 'refused', reason: 'probe' }],
    ];
    for (const [action, path, body] of shell) {
      const answer = await send(server.base, body === undefined ? 'GET' : 'POST', path, body === undefined ? undefined : JSON.stringify(body), {
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      });
      attempts.push({ action: `production: ${action}`, as: 'anyone', through: answer.status === 200 });
    }
  } finally {
    dropAgents();
    await server.stop();
  }
}
