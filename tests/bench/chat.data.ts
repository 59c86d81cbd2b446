/**
 * Made-up but realistic data for the chat rendering bench: 200 sessions and a 10,000-message
 * conversation. A seeded generator keeps every run (and every machine) on the same data.
 */
import type { ChatProfile } from '../../machines/conversations/conversations.machine';
import type { ImConversation, ImMessage } from '../../machines/ports/im.port';
import type { TalkMessage } from '../../machines/talk/talk.machine';

export const SESSIONS = 200;
export const MESSAGES = 10_000;
/**
 * Pictures, gift images and avatars come from the CDN as photos (JPEG/PNG/WebP), so the bench
 * shows a raster picture too. (An SVG would cost far more: Chromium builds a whole document for
 * every SVG image, which is not what the app's pictures cost on a phone.)
 */
import PICTURE from './picture.png';
import { seededRandom } from '../../server/testing/random';
// Times relative to now, so the newest sessions are "today" (shown as a time) as they would be.
const NOW = Date.now();

const WORDS = (
  'hello hi there how are you today fine thanks call me later tonight gift love the show '
  + 'again tomorrow morning sure 😊 👍 what time works best for a video chat I am free after work see you soon'
).split(' ');

function sentence(random: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(' ');
}

/** Mostly short texts, some long ones (up to the 200-character limit), a few pictures, voices, gifts and secret cards. */
function messageKind(random: () => number, i: number): Pick<ImMessage, 'type' | 'text' | 'attach' | 'ext'> {
  const r = random();
  if (r < 0.03) return { type: 'image', attach: { url: PICTURE, w: 160, h: 160 } };
  if (r < 0.05) return { type: 'audio', attach: { url: `/voice-${i}.aac`, dur: 3000 } };
  if (r < 0.08) return { type: 'custom', attach: { attachType: 4, giftImg: PICTURE, giftNum: 1 + (i % 9) } };
  if (r < 0.09) return { type: 'custom', attach: { content: 'Private photo' }, ext: JSON.stringify({ extensionType: 'privateMsg' }) };
  const words = r < 0.6 ? 1 + Math.floor(random() * 6) : r < 0.9 ? 6 + Math.floor(random() * 14) : 20 + Math.floor(random() * 18);
  return { type: 'text', text: sentence(random, words).slice(0, 200) };
}

/** 200 sessions, newest first as the IM gives them, with varied previews and unread counts. */
export function benchConversations(): ImConversation[] {
  const random = seededRandom(200);
  return Array.from({ length: SESSIONS }, (_, i): ImConversation => {
    const to = `peer${String(i).padStart(3, '0')}`;
    const kind = messageKind(random, i);
    const lastMsg: ImMessage = {
      idClient: `c-${to}`, idServer: `s-${to}`, from: random() < 0.5 ? to : 'me', to: 'me', fromNick: `Peer ${i}`,
      sessionId: to, scene: 'p2p', flow: random() < 0.5 ? 'in' : 'out', ...kind, time: NOW - i * 37 * 60_000, status: 'sent',
    };
    const unread = random() < 0.4 ? Math.floor(random() * (random() < 0.1 ? 300 : 12)) : 0;
    // Some today (shown as a time), the rest on earlier days (shown as a date).
    return { id: `p2p-${to}`, to, lastMsg, updateTime: lastMsg.time, unread };
  });
}

/** Five pinned sessions spread over the list (the VIP maximum). */
export const benchPins = ['p2p-peer150', 'p2p-peer007', 'p2p-peer099', 'p2p-peer042', 'p2p-peer180'];

export function benchProfiles(accounts: readonly string[]): Record<string, ChatProfile> {
  return Object.fromEntries(accounts.map((account, i): [string, ChatProfile] => [account, {
    nickname: `${account.replace('peer', 'Ana ')} ${i % 3 === 0 ? 'the very long-named host of the evening' : ''}`.trim(),
    icon: i % 5 === 0 ? '' : PICTURE,
    onlineStatus: 1 + (i % 3),
  }]));
}

/** 10,000 messages in time order (oldest first), both ways; the last few of ours still sending or failed. */
export function benchMessages(): TalkMessage[] {
  const random = seededRandom(10_000);
  const start = NOW - MESSAGES * 90_000;
  return Array.from({ length: MESSAGES }, (_, i): TalkMessage => {
    const status = i === MESSAGES - 1 ? 'sending' : i === MESSAGES - 3 ? 'failed' : 'sent';
    const flow = status !== 'sent' || random() < 0.5 ? 'out' : 'in';
    return {
      idClient: `m${i}`, idServer: `sm${i}`, from: flow === 'in' ? 'peer' : 'me', to: flow === 'in' ? 'me' : 'peer',
      sessionId: 'peer', scene: 'p2p', flow, ...messageKind(random, i), time: start + i * 90_000, status,
      ...(status === 'failed' ? { reason: 'No connection. The message was not sent.' } : {}),
    };
  });
}
