import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { MESSAGE_NO_MATCH_USER, ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import {
  FEEDBACK_CONTENT_MAX, TEXT_CANNOT_BLOCK_CUSTOMER_SERVICE, TEXT_CANNOT_BLOCK_SELF, TEXT_CONTACT_TOO_LONG, TEXT_FEEDBACK_TOO_LONG, TEXT_FEEDBACK_TOO_SHORT,
  TEXT_FEEDBACK_TYPE_UNKNOWN,
} from '../../src/api/contract/chat';
import { HubCode, RealtimePath } from '../../src/api/contract/realtime';
import { CUSTOMER_SERVICE, SEED_PASSWORD } from '../db/seed';
import { signInForIm, startTestServer, type TestServer } from '../testing/harness';
import { TEXT_INVALID_REQUEST, TEXT_SESSION_EXPIRED } from './transport';

const { blockUser, removeBlockUser, getCustomerReplyInfo, getFeedbackType, getAnchorFeedbackSubmit } = endpoints;

interface Person { userId: number; token: string; accid: string; imToken: string }

let server: TestServer;
const people: Record<string, Person> = {};
beforeAll(async () => {
  server = await startTestServer({ build: false });
  for (const name of ['host1', 'host2', 'user1', 'user2', 'user3']) {
    const signedIn = await signInForIm(server.call, `${name}@example.com`, SEED_PASSWORD);
    people[name] = { userId: signedIn.userId, token: signedIn.token, accid: signedIn.yxAccid, imToken: signedIn.imToken };
  }
});
afterAll(() => server.close());

const p = (name: string) => people[name]!;
const blockRows = (blocker: number) =>
  server.readDb().prepare('SELECT blocked_id FROM user_blocks WHERE blocker_id = ? ORDER BY blocked_id').pluck().all(blocker);

/** A minimal IM client of the hub: log in, send a text, read the reply. */
async function imClient(person: Person) {
  const ws = new WebSocket(server.base.replace(/^http/, 'ws') + RealtimePath.im);
  const replies = new Map<number, { ok: boolean; code?: number }>();
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { id?: unknown; ok: boolean; code?: number };
    if (typeof frame.id === 'number') replies.set(frame.id, frame);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let nextId = 1;
  const call = async (op: string, args: object) => {
    const id = nextId++;
    ws.send(JSON.stringify({ id, op, ...args }));
    return vi.waitFor(() => replies.get(id) ?? Promise.reject(new Error('no reply yet')));
  };
  expect(await call('login', { account: person.accid, token: person.imToken })).toMatchObject({ ok: true });
  return {
    send: (to: Person, text: string) => call('send', { to: to.accid, idClient: `${text}-${nextId}`, type: 'text', text }),
    close: () => ws.close(),
  };
}

describe('[§7] /api/user/blockUser and removeBlockUser', () => {
  it('blocks by user id and by IM account, once, and answers the person', async () => {
    const byId = await server.call(blockUser, { beBlockUserId: p('user1').userId }, { token: p('host1').token });
    expect(byId).toMatchObject({ code: ResultCode.success, data: { userId: p('user1').userId, yxAccid: p('user1').accid, blocked: true } });
    const again = await server.call(blockUser, { beBlockYxAccid: p('user1').accid }, { token: p('host1').token });
    expect(again.data).toEqual(byId.data);
    expect(blockRows(p('host1').userId)).toEqual([p('user1').userId]);

    const removed = await server.call(removeBlockUser, { beBlockYxAccid: p('user1').accid }, { token: p('host1').token });
    expect(removed.data).toEqual({ ...byId.data, blocked: false });
    // Removing a block that is not there is not an error either.
    expect((await server.call(removeBlockUser, { beBlockUserId: p('user1').userId }, { token: p('host1').token })).code)
      .toBe(ResultCode.success);
    expect(blockRows(p('host1').userId)).toEqual([]);
  });

  it('[§8 7101] shares the hub\'s table: a block through the API makes the IM refuse the sender, removing it lets them through', async () => {
    const sender = await imClient(p('user2'));
    try {
      expect(await sender.send(p('host2'), 'before')).toMatchObject({ ok: true });
      await server.call(blockUser, { beBlockUserId: p('user2').userId }, { token: p('host2').token });
      expect(await sender.send(p('host2'), 'blocked')).toMatchObject({ ok: false, code: HubCode.refused });
      // The block is one way: the blocker can still write.
      const blocker = await imClient(p('host2'));
      expect(await blocker.send(p('user2'), 'one way')).toMatchObject({ ok: true });
      blocker.close();
      await server.call(removeBlockUser, { beBlockUserId: p('user2').userId }, { token: p('host2').token });
      expect(await sender.send(p('host2'), 'after')).toMatchObject({ ok: true });
    } finally {
      sender.close();
    }
  });

  it('refuses blocking yourself, by id or account', async () => {
    for (const body of [{ beBlockUserId: p('user3').userId }, { beBlockYxAccid: p('user3').accid }]) {
      for (const endpoint of [blockUser, removeBlockUser]) {
        const res = await server.call(endpoint, body, { token: p('user3').token });
        expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_CANNOT_BLOCK_SELF });
      }
    }
    expect(blockRows(p('user3').userId)).toEqual([]);
  });

  it('[§8 no.match.user] answers someone who is not an app user', async () => {
    for (const body of [{ beBlockUserId: 999_999 }, { beBlockYxAccid: 'yx-nobody' }]) {
      const res = await server.call(blockUser, body, { token: p('user3').token });
      expect(res).toEqual({ code: ResultCode.invalidRequest, message: MESSAGE_NO_MATCH_USER });
    }
  });

  it('refuses blocking customer service in words, for users and hosts alike', async () => {
    for (const who of ['user3', 'host1']) {
      for (const endpoint of [blockUser, removeBlockUser]) {
        const res = await server.call(endpoint, { beBlockYxAccid: CUSTOMER_SERVICE.yxAccid }, { token: p(who).token });
        expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_CANNOT_BLOCK_CUSTOMER_SERVICE });
      }
    }
    expect(blockRows(p('user3').userId)).toEqual([]);
  });

  it('[1000] wants exactly one of the two fields; [1005] needs a session', async () => {
    const both = { beBlockUserId: p('user1').userId, beBlockYxAccid: p('user1').accid };
    for (const body of [{}, both, { beBlockUserId: 0 }, { beBlockUserId: '200001' }]) {
      const res = await server.call(blockUser, body as never, { token: p('user3').token });
      expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
    }
    const res = await server.call(blockUser, { beBlockUserId: p('user1').userId });
    expect(res).toEqual({ code: ResultCode.authFailed, message: TEXT_SESSION_EXPIRED });
  });
});

describe('[§7] customer service: /api/chat/common/problem/getCustomerReplyInfo and /api/chat/getFeedbackType', () => {
  it('answers the common problems with their replies for the caller\'s kind', async () => {
    const host = await server.call(getCustomerReplyInfo, {}, { token: p('host1').token });
    const user = await server.call(getCustomerReplyInfo, {}, { token: p('user1').token });
    expect(host.data!.problemReply.map((q) => q.id)).toEqual([1, 2, 3, 5, 6]);
    expect(user.data!.problemReply.map((q) => q.id)).toEqual([1, 2, 3, 4]);
    expect(host.data!.problemReply[0]).toEqual({
      id: 1, problem: 'How do I recharge diamonds?', reply: 'Open Mine, then Wallet, choose a package and a payment method.',
    });
  });

  it('answers the feedback types in order', async () => {
    const res = await server.call(getFeedbackType, {}, { token: p('user1').token });
    expect(res.data!.map((t) => t.name)).toEqual(['Call quality', 'Payment or recharge', 'Account or login', 'Report a user', 'Suggestion', 'Other']);
    expect(res.data!.map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('[1005] needs a session', async () => {
    expect((await server.call(getCustomerReplyInfo, {})).code).toBe(ResultCode.authFailed);
    expect((await server.call(getFeedbackType, {})).code).toBe(ResultCode.authFailed);
  });
});

describe('[§7] /api/chat/getAnchorFeedbackSubmit', () => {
  const feedbackOf = (id: number) => server.readDb().prepare('SELECT * FROM feedback WHERE id = ?').get(id);

  it('stores the feedback, trimmed, with the caller, the type and the app id', async () => {
    const res = await server.call(
      getAnchorFeedbackSubmit,
      { feedbackType: 1, content: '  The video froze twice.  ', contact: ' me@example.com ' },
      { token: p('host1').token, appId: 'app-7' },
    );
    expect(res.code).toBe(ResultCode.success);
    expect(feedbackOf(res.data!.id)).toMatchObject({
      user_id: p('host1').userId, type_id: 1, content: 'The video froze twice.', contact: 'me@example.com', app_id: 'app-7',
    });
    const noContact = await server.call(getAnchorFeedbackSubmit, { feedbackType: 6, content: 'Nice app' }, { token: p('user1').token });
    expect(feedbackOf(noContact.data!.id)).toMatchObject({ user_id: p('user1').userId, contact: null });
  });

  it('counts characters as people do: 500 emoji are within the limit', async () => {
    const res = await server.call(getAnchorFeedbackSubmit, { feedbackType: 5, content: '😀'.repeat(FEEDBACK_CONTENT_MAX) }, { token: p('user1').token });
    expect(res.code).toBe(ResultCode.success);
  });

  it('refuses with a clear message: unknown type, too short, too long, contact too long', async () => {
    const cases: [Parameters<typeof server.call<typeof getAnchorFeedbackSubmit>>[1], string][] = [
      [{ feedbackType: 99, content: 'The video froze.' }, TEXT_FEEDBACK_TYPE_UNKNOWN],
      [{ feedbackType: 1, content: '   ab   ' }, TEXT_FEEDBACK_TOO_SHORT],
      [{ feedbackType: 1, content: 'x'.repeat(FEEDBACK_CONTENT_MAX + 1) }, TEXT_FEEDBACK_TOO_LONG],
      [{ feedbackType: 1, content: 'The video froze.', contact: 'c'.repeat(101) }, TEXT_CONTACT_TOO_LONG],
    ];
    const before = server.readDb().prepare('SELECT count(*) FROM feedback').pluck().get();
    for (const [body, message] of cases) {
      expect(await server.call(getAnchorFeedbackSubmit, body, { token: p('user2').token }))
        .toEqual({ code: ResultCode.invalidRequest, message });
    }
    expect(server.readDb().prepare('SELECT count(*) FROM feedback').pluck().get()).toBe(before);
  });

  it('[1000] refuses a body of the wrong shape; [1005] needs a session', async () => {
    for (const body of [{ content: 'The video froze.' }, { feedbackType: '1', content: 'The video froze.' }, { feedbackType: 1 }]) {
      const res = await server.call(getAnchorFeedbackSubmit, body as never, { token: p('user2').token });
      expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
    }
    expect((await server.call(getAnchorFeedbackSubmit, { feedbackType: 1, content: 'The video froze.' })).code)
      .toBe(ResultCode.authFailed);
  });
});
