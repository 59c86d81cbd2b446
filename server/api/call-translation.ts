/**
 * The translated lines of a call's chat (SPEC §4 system message -1; src/api/contract/call.ts
 * CallTranslationNotice): when a party of a connected call sends the other a text and the two
 * speak different languages, the server translates the text into the reader's language and sends
 * the reader a -1 notification from the system sender, after the message itself.
 *
 * A person's language is their country's (COUNTRY_LANGUAGE; English where the country is unknown
 * or not listed): the server knows it without asking the app. The translation goes through the
 * translator stand-in (server/api/translator.ts) unless another translator is given; one that
 * fails leaves the line untranslated (the message itself has gone already).
 */
import type { FastifyBaseLogger } from 'fastify';
import { AttachType } from '../../machines/system-messages/system-messages';
import { CallStatus, type CallTranslationNotice } from '../../src/api/contract/call';
import type { Db } from '../db/database';
import type { RealtimeHub } from '../realtime/hub';
import { createImStore } from '../realtime/im.store';
import type { SentText } from '../realtime/im';
import type { CallEngine } from './billing';
import { translateByStandIn } from './translator';

/** The language of each seeded country (ISO 3166 code → translator language). */
export const COUNTRY_LANGUAGE: Readonly<Record<string, string>> = {
  US: 'en', PH: 'en', IN: 'en', BR: 'pt', CO: 'es', VN: 'vi', ID: 'id', UA: 'uk',
};
export const DEFAULT_LANGUAGE = 'en';

/** Translates `text` into the language `to`. */
export type TranslateLine = (text: string, to: string) => Promise<string>;

export interface CallTranslationDeps {
  db: Db;
  realtime: Pick<RealtimeHub, 'im'>;
  calls: Pick<CallEngine, 'openCallOf'>;
  /** Default: the translator stand-in. */
  translate?: TranslateLine;
  log?: FastifyBaseLogger;
}

/** Starts translating the call chat's lines; answers the stop. */
export function startCallTranslation({ db, realtime, calls, translate, log }: CallTranslationDeps): () => void {
  const translateLine: TranslateLine = translate ?? ((text, to) => Promise.resolve(translateByStandIn(text, to)));
  const imStore = createImStore(db);
  const personOf = db.prepare<[string], { id: number; code: string | null }>(
    'SELECT u.id, c.code FROM users u LEFT JOIN countries c ON c.id = u.country_id WHERE u.yx_accid = ?',
  );
  const languageOf = (code: string | null) => (code !== null ? COUNTRY_LANGUAGE[code] : undefined) ?? DEFAULT_LANGUAGE;

  /** The reader's language and the call's channel when `from` and `to` are the two parties of a connected call. */
  function callLine({ from, to }: SentText): { channelId: string; language: string } | null {
    const sender = personOf.get(from);
    const reader = personOf.get(to);
    if (!sender || !reader) return null;
    const call = calls.openCallOf(sender.id);
    if (!call || call.status !== CallStatus.inProgress || ![call.caller_id, call.callee_id].includes(reader.id)) return null;
    const language = languageOf(reader.code);
    return language === languageOf(sender.code) ? null : { channelId: call.channel_id, language };
  }

  async function translateFor(message: SentText): Promise<void> {
    const line = callLine(message);
    if (!line) return;
    const content = (await translateLine(message.text, line.language)).trim();
    if (!content) return;
    const notice: CallTranslationNotice = { attachType: AttachType.inCallTranslation, content, channelId: line.channelId };
    const item = imStore.system(message.to, notice);
    realtime.im.connectionOf(message.to)?.push(item);
  }

  return realtime.im.onText((message) => {
    translateFor(message).catch((err: unknown) => log?.error({ err }, 'a call chat line could not be translated'));
  });
}
