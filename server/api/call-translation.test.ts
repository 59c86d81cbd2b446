/**
 * SPEC §4 system message -1: a connected call's chat line reaches a reader of another language
 * translated too (server/api/call-translation.ts), from the system sender, through the
 * translator stand-in; nothing is sent between people of one language, or outside a call.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AttachType, SYSTEM_SENDER_ACCID } from '../../machines/system-messages/system-messages';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { callWorld, noticesOf, sleep, type HubSocket } from '../testing/calls';
import { COUNTRY_LANGUAGE } from './call-translation';

const { createCall, joinCall, endCall } = endpoints;

const world = callWorld({
  // host1 is in the United States (en), user1 in Colombia (es), user2 in India (en).
  seed: { hosts: 2, users: 2 },
  signIn: ['host1', 'user1', 'user2'],
  present: ['host1'],
});
const { p } = world;
const as = (name: string) => ({ token: p[name]!.token });
const countryOf = (name: string) => world.db.prepare<[number], string>(
  'SELECT c.code FROM users u JOIN countries c ON c.id = u.country_id WHERE u.id = ?',
).pluck().get(p[name]!.userId)!;

async function connect(user: string): Promise<string> {
  const placed = await world.server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: p.host1!.userId, callType: 0 }, as(user));
  expect(placed.code, placed.message).toBe(ResultCode.success);
  const channelId = placed.data!.channelId;
  expect((await world.server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as('host1'))).code).toBe(ResultCode.success);
  return channelId;
}
const say = (socket: HubSocket, to: string, text: string) =>
  socket.call('send', { to: p[to]!.yxAccid, idClient: randomUUID(), type: 'text', text });
/** The -1 notifications stored for `who`. */
const translations = (who: string) => noticesOf(world.db, p[who]!.yxAccid, AttachType.inCallTranslation);
/** Waits until `who` has `count` translations pushed to `socket`. */
async function pushedTranslations(socket: HubSocket, count: number) {
  const of = () => socket.pushes.filter((push) => push.type === 'notification'
    && (push.notification as { content?: { attachType?: number } } | undefined)?.content?.attachType === AttachType.inCallTranslation);
  for (let waited = 0; of().length < count && waited < 2000; waited += 20) await sleep(20);
  return of();
}

describe('[§4 -1] translated in-call chat lines', () => {
  it('translates a line into the reader\'s language when the two speak different ones, both ways', async () => {
    expect([COUNTRY_LANGUAGE[countryOf('host1')], COUNTRY_LANGUAGE[countryOf('user1')]]).toEqual(['en', 'es']);
    const host = await world.people.im(p.host1!);
    const user = await world.people.im(p.user1!);
    const channelId = await connect('user1');

    await say(user, 'host1', 'Hola amigo');
    await say(host, 'user1', 'Good night');
    const [toHost] = await pushedTranslations(host, 1);
    expect(toHost).toMatchObject({ notification: { from: SYSTEM_SENDER_ACCID } });
    expect(translations('host1').map((n) => n.content)).toEqual([{ attachType: -1, content: 'Hello friend', channelId }]);
    await pushedTranslations(user, 1);
    expect(translations('user1').map((n) => n.content)).toEqual([{ attachType: -1, content: 'Bueno noche', channelId }]);

    // Once the call is over, a chat line is just a message.
    expect((await world.server.call(endCall, { channelId, hangupReason: 1 }, as('user1'))).code).toBe(ResultCode.success);
    await say(user, 'host1', 'Gracias');
    await sleep(100);
    expect(translations('host1')).toHaveLength(1);
  });

  it('sends nothing between two people of one language', async () => {
    expect(COUNTRY_LANGUAGE[countryOf('user2')]).toBe(COUNTRY_LANGUAGE[countryOf('host1')]);
    const user = await world.people.im(p.user2!);
    const channelId = await connect('user2');
    await say(user, 'host1', 'Hello');
    await sleep(100);
    expect(translations('host1').filter((n) => n.content.channelId === channelId)).toEqual([]);
    expect((await world.server.call(endCall, { channelId, hangupReason: 1 }, as('user2'))).code).toBe(ResultCode.success);
  });
});
