/**
 * The live room chat's codes, limits, texts and shapes (SPEC §3 Live chat record and Live
 * info whoBlock / wishlist, §4 Live state gag rules, §6 entering-room highlights for userLevel
 * above 0, §9 audience query 500, live history 5, enter highlight 2 s, enter list shift 1.2 s),
 * declared once for the chat machine, the live machines, their screens and tests.
 *
 * Everything a room message or a member carries is untrusted: the readers below take any
 * value and answer a well-formed record (or null), never throw.
 */
import { parseExt } from '../im/preview';
import type { ChatroomMember, ChatroomMessage } from '../ports/chatroom.port';
import type { ReceivedGift } from '../ports/gift.port';
import { GIFT_NUM_MAX } from '../ports/gift.port';
import type { LiveWish } from '../ports/live.port';
import { WhoBlock } from '../ports/live.port';

export { WhoBlock };

/** SPEC §9 Paging: the audience query. */
export const AUDIENCE_LIMIT = 500;
/** SPEC §9 Paging: the messages loaded on entry. */
export const HISTORY_LIMIT = 5;
/** A chat line is capped like in-call chat (SPEC §5: 200). */
export const MAX_CHAT_TEXT = 200;
/** Chat records kept on screen; older ones drop off the top. */
export const MAX_RECORDS = 200;
/** SPEC §9 Timers: each entering-room highlight shows 2 s … */
export const HIGHLIGHT_SHOW_MS = 2_000;
/** … and the next one comes in 1.2 s after the one before it. */
export const HIGHLIGHT_SHIFT_MS = 1_200;
/** Highlights waiting their turn; a crowd entering at once drops the oldest (they are greetings, not payments). */
export const MAX_WAITING_HIGHLIGHTS = 30;
/** The chat-room service's "muted" refusal of a send (NetEase and the reference hub). */
export const CHATROOM_MUTED_CODE = 13004;
/** Highest userLevel taken as is. */
const MAX_LEVEL = 999;

/** Why a muted viewer's line is not sent (whoBlock 1, 2 or 3). */
export const TEXT_MUTED = 'You have been muted in this live room, so you cannot send messages.';
export const TEXT_SEND_FAILED = 'Your message was not sent. Please try again.';
export const TEXT_GAG_FAILED = 'Could not change who may chat. Please try again.';

/** SPEC §4 Live state: a gag by the host sets whoBlock 2 (3 when the service had muted too). */
export const WHO_BLOCK_AFTER_GAG: Readonly<Record<WhoBlock, WhoBlock>> = {
  [WhoBlock.none]: WhoBlock.host, [WhoBlock.service]: WhoBlock.both, [WhoBlock.host]: WhoBlock.host, [WhoBlock.both]: WhoBlock.both,
};
/** SPEC §4 Live state: ungag returns per whoBlock: 3 gives 1 (still blocked), 2 gives 0, 1 gives 1 (still blocked). */
export const WHO_BLOCK_AFTER_UNGAG: Readonly<Record<WhoBlock, WhoBlock>> = {
  [WhoBlock.none]: WhoBlock.none, [WhoBlock.service]: WhoBlock.service, [WhoBlock.host]: WhoBlock.none, [WhoBlock.both]: WhoBlock.service,
};

export const isMuted = (whoBlock: WhoBlock): boolean => whoBlock !== WhoBlock.none;

/** whoBlock as the server said it; an unknown code falls back on isBlockUser (blocked: by the host). */
export function whoBlockOf(raw: unknown, isBlockUser: unknown): WhoBlock {
  const codes: readonly number[] = Object.values(WhoBlock);
  if (typeof raw === 'number' && codes.includes(raw)) return raw as WhoBlock;
  return isBlockUser === true ? WhoBlock.host : WhoBlock.none;
}

/** SPEC §3 Live chat record, as the room shows it. */
export interface LiveChatRecord {
  /** The server id (a stable key, and how a repeat is recognised). */
  key: string;
  from: string;
  fromNick: string;
  /** '' for a gift. */
  text: string;
  isVip: boolean;
  isNewUser: boolean;
  userLevel: number;
  /** A gift's picture (https or same-origin), or null for a text. */
  giftImg: string | null;
  /** 0 for a text. */
  giftNum: number;
  giftId: number | null;
  giftName: string;
  time: number;
}

/** An entering-room highlight (SPEC §6: members above level 0). */
export interface Highlight {
  account: string;
  nick: string;
  avatar: string | null;
  userLevel: number;
  isVip: boolean;
}

const flag = (v: unknown): boolean => v === true || v === 1 || v === 'true' || v === '1';
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
const int = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? Math.trunc(n) : null;
};
const level = (v: unknown): number => Math.min(MAX_LEVEL, Math.max(0, int(v) ?? 0));

/** SPEC §5: only https pictures (http is rewritten); same-origin paths stay; anything else is none. */
export function secureImage(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const url = v.trim();
  if (/^https:\/\//i.test(url)) return url;
  if (/^http:\/\//i.test(url)) return url.replace(/^http:\/\//i, 'https://');
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  return null;
}

/** Whether the service itself posted the message (a paid gift, a notice): a member's own never is. */
export const fromServer = (message: ChatroomMessage): boolean =>
  Boolean(message && typeof message === 'object' && (message as { fromServer?: unknown }).fromServer === true);

/**
 * A room message as a chat record; null when it carries nothing to show. A line is a gift only
 * when the service posted it (the paid gift path): gift fields from anyone else are ignored.
 */
export function recordOf(message: ChatroomMessage): LiveChatRecord | null {
  const m = (message && typeof message === 'object' ? message : {}) as Partial<Record<keyof ChatroomMessage, unknown>>;
  const key = str(m.idServer);
  if (!key) return null;
  const attach = parseExt(m.attach) ?? {};
  const giftId = int(attach.giftId);
  const giftImg = secureImage(attach.giftImg);
  const gift = fromServer(message) && ((giftId !== null && giftId > 0) || giftImg !== null);
  const text = gift || typeof m.text !== 'string' ? '' : m.text.trim().slice(0, MAX_CHAT_TEXT);
  if (!gift && !text) return null;
  const from = str(m.from);
  return {
    key,
    from,
    fromNick: str(m.fromNick).trim() || from,
    text,
    isVip: flag(attach.isVip),
    isNewUser: flag(attach.isNewUser),
    userLevel: level(attach.userLevel),
    giftImg: gift ? giftImg : null,
    giftNum: gift ? Math.min(GIFT_NUM_MAX, Math.max(1, int(attach.giftNum) ?? 1)) : 0,
    giftId: gift && giftId !== null && giftId > 0 ? giftId : null,
    giftName: gift ? str(attach.giftName) : '',
    time: int(m.time) ?? 0,
  };
}

/**
 * The host's private-call switch as the server tells the room (a notice the server posts from
 * the host with attach { privateCallOpen }, no text): the new value, or null when the message is
 * not one. Only the server's notice about the host counts.
 */
export function privateCallNoticeOf(message: ChatroomMessage, hostAccount: string): boolean | null {
  const m = (message && typeof message === 'object' ? message : {}) as Partial<Record<keyof ChatroomMessage, unknown>>;
  if (!fromServer(message) || m.from !== hostAccount || (typeof m.text === 'string' && m.text.trim() !== '')) return null;
  const open = (parseExt(m.attach) ?? {}).privateCallOpen;
  return typeof open === 'boolean' ? open : null;
}

/** What the gift animation queue plays for a gift record. */
export const receivedGiftOf = (r: LiveChatRecord): ReceivedGift => ({
  giftId: r.giftId, giftName: r.giftName, giftImg: r.giftImg ?? '', giftNum: r.giftNum, fromNick: r.fromNick,
});

/** A member's highlight; null unless the member's level (entry ext) is above 0. */
export function highlightOf(member: ChatroomMember): Highlight | null {
  const m = (member && typeof member === 'object' ? member : {}) as Partial<Record<keyof ChatroomMember, unknown>>;
  const ext = parseExt(m.ext) ?? {};
  const account = str(m.account);
  const userLevel = level(ext.userLevel);
  if (!account || userLevel <= 0) return null;
  return { account, nick: str(m.nick).trim() || account, avatar: secureImage(m.avatar), userLevel, isVip: flag(ext.isVip) };
}

/** A member as the audience list keeps it (untrusted fields made safe). */
export function audienceMemberOf(member: ChatroomMember): ChatroomMember | null {
  const m = (member && typeof member === 'object' ? member : {}) as Partial<Record<keyof ChatroomMember, unknown>>;
  const account = str(m.account);
  if (!account) return null;
  const avatar = secureImage(m.avatar);
  return { account, nick: str(m.nick).trim() || account, ...(avatar ? { avatar } : {}), gagged: m.gagged === true };
}

/** SPEC §3 wishlist: a gift of the room counts toward its wish, at most giftNum; completed when reached. */
export function progressWishlist(wishlist: readonly LiveWish[], giftId: number | null, giftNum: number): LiveWish[] {
  return wishlist.map((w) => {
    if (giftId === null || w.giftId !== giftId || w.completed) return w;
    const done = Math.min(w.giftNum, w.compelteGiftNum + giftNum);
    return { ...w, compelteGiftNum: done, ratio: w.giftNum > 0 ? done / w.giftNum : 1, completed: done >= w.giftNum };
  });
}

/** The wishlist as the server said it, made safe (counts whole and in range, ratio recomputed). */
export function wishlistOf(raw: unknown): LiveWish[] {
  if (!Array.isArray(raw)) return [];
  const out: LiveWish[] = [];
  for (const item of raw as unknown[]) {
    const w = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const giftId = int(w.giftId);
    const giftNum = int(w.giftNum);
    if (giftId === null || giftId <= 0 || giftNum === null || giftNum <= 0) continue;
    const done = Math.min(giftNum, Math.max(0, int(w.compelteGiftNum) ?? 0));
    out.push({ ...w, giftId, giftNum, compelteGiftNum: done, ratio: done / giftNum, completed: done >= giftNum } as LiveWish);
  }
  return out;
}

/** The profile a member shows the room with (ChatroomEntry.ext, and every line it sends). */
export interface RoomProfile {
  isVip: boolean;
  isNewUser: boolean;
  userLevel: number;
}
