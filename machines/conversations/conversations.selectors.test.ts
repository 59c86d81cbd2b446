/** The rows of /news (SPEC §3 Chat session): names, pictures and status of each chat. */
import { describe, expect, it } from 'vitest';
import type { ImConversation, ImMessage } from '../ports/im.port';
import { TEXT_CUSTOMER_SERVICE, chatRowsOf } from './conversations.selectors';

const ME = 'yx-me';
const CS = 'yx-cs';

function text(from: string, to: string, fromNick: string): ImMessage {
  return {
    idClient: `${from}-${to}`, idServer: '1', from, to, fromNick, sessionId: from === ME ? to : from,
    scene: 'p2p', flow: from === ME ? 'out' : 'in', type: 'text', text: 'hello', time: 1, status: 'sent',
  };
}

const chat = (to: string, lastMsg: ImMessage): ImConversation => ({ id: `p2p-${to}`, to, lastMsg, updateTime: 1, unread: 0 });

describe('[§3 Chat session] chat rows', () => {
  it('the customer-service chat is named Customer Service, whoever wrote last, and is marked as such', () => {
    const sessions = { 'p2p-yx-cs': chat(CS, text(ME, CS, 'Ben')) };
    const [row] = chatRowsOf({ sessions, pinned: [], profiles: {} }, CS);
    expect(row).toMatchObject({ nickname: TEXT_CUSTOMER_SERVICE, customerService: true, icon: null });
  });

  it('a peer without a profile is never named after the reader: the last sender\'s name counts only when it is the peer', () => {
    const sessions = {
      'p2p-yx-a': chat('yx-a', text(ME, 'yx-a', 'Ben')),
      'p2p-yx-b': chat('yx-b', text('yx-b', ME, 'Sofia')),
    };
    const rows = chatRowsOf({ sessions, pinned: [], profiles: {} }, CS);
    expect(rows.map((r) => [r.to, r.nickname, r.customerService])).toEqual(
      expect.arrayContaining([['yx-a', 'yx-a', false], ['yx-b', 'Sofia', false]]),
    );
  });

  it('a profile names and pictures a peer; without the customer-service account known, its chat is an ordinary one', () => {
    const sessions = { 'p2p-yx-a': chat('yx-a', text(ME, 'yx-a', 'Ben')), 'p2p-yx-cs': chat(CS, text(ME, CS, 'Ben')) };
    const profiles = { 'yx-a': { nickname: ' Ann ', icon: '/avatars/a.svg', onlineStatus: 1 } };
    const rows = chatRowsOf({ sessions, pinned: [], profiles });
    expect(rows.find((r) => r.to === 'yx-a')).toMatchObject({ nickname: 'Ann', icon: '/avatars/a.svg', onlineStatus: 1 });
    expect(rows.find((r) => r.to === CS)).toMatchObject({ nickname: CS, customerService: false });
  });
});
