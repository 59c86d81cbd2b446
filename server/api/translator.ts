/**
 * A development stand-in for Microsoft Translator v3 `translate` (SPEC §7: the one
 * unencrypted call), at TRANSLATOR_LOCAL_PATH, so that translation works on one machine
 * without a cloud key. It speaks Microsoft's request and answer shapes (see
 * src/api/contract/translator.ts) and answers Microsoft's error shape and codes, and it
 * checks the key and region against the `microsoft_translator_config` app config value (read
 * per request, so an edited value applies at once).
 *
 * The translation is deterministic and fake: a small phrase-book of chat words between
 * English, Spanish, Portuguese, French and Indonesian, word by word; a text in which no word
 * is known comes back tagged with the target language (`[es] …`). The source language is
 * the one whose words the text uses most (English when none).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConfigKey } from '../../src/api/contract/config';
import {
  TRANSLATOR_API_VERSION, TRANSLATOR_LOCAL_PATH, TRANSLATOR_MAX_CHARACTERS, TRANSLATOR_MAX_ELEMENTS, TranslateRequest,
  TranslatorConfig, TranslatorHeader, type TranslateResponse, type TranslatorError,
} from '../../src/api/contract/translator';
import { appConfig } from '../db/app-config';
import type { Db } from '../db/database';
import { sameSecret } from '../realtime/accounts';

/** Largest body read (bytes): room for TRANSLATOR_MAX_CHARACTERS of three-byte characters and the JSON around them. */
export const TRANSLATOR_BODY_LIMIT = 256 * 1024;

/** Microsoft's error codes (status = the first three digits) and messages, as far as the stand-in uses them. */
export const TranslatorErrorCode = {
  invalidInput: [400000, 'One of the request inputs is not valid.'],
  invalidText: [400005, 'An input text is missing or invalid.'],
  invalidApiVersion: [400021, 'The API version parameter is missing or invalid.'],
  invalidFrom: [400035, 'The source language ("From" field) is not valid.'],
  invalidTo: [400036, 'The target language ("To" field) is missing or invalid.'],
  textTooLong: [400050, 'The input text is too long.'],
  tooManyElements: [400072, 'The array of input text has too many elements.'],
  invalidJson: [400074, 'The body of the request is not valid JSON.'],
  requestTooLarge: [400077, 'The maximum request size has been exceeded.'],
  unauthorized: [401000, 'The request is not authorized because credentials are missing or invalid.'],
  methodNotAllowed: [405000, 'The request method is not supported for the requested resource.'],
  contentType: [415000, 'The Content-Type header is missing or invalid.'],
  internal: [500000, 'An unexpected error occurred.'],
} as const satisfies Record<string, readonly [number, string]>;
type TranslatorErrorCode = (typeof TranslatorErrorCode)[keyof typeof TranslatorErrorCode];

/** The target languages accepted (a subset of Microsoft's); the phrase-book covers the first five. */
const LANGUAGES = new Set([
  'en', 'es', 'pt', 'fr', 'id', 'de', 'it', 'nl', 'ru', 'uk', 'tr', 'ar', 'hi', 'bn', 'th', 'vi', 'ms', 'fil',
  'ja', 'ko', 'zh-Hans', 'zh-Hant',
]);

type BookLanguage = 'en' | 'es' | 'pt' | 'fr' | 'id';
const BOOK_LANGUAGES: readonly BookLanguage[] = ['en', 'es', 'pt', 'fr', 'id'];

/** One row per meaning: en, es, pt, fr, id. */
const PHRASE_BOOK: readonly (readonly [string, string, string, string, string])[] = [
  ['hello', 'hola', 'olá', 'bonjour', 'halo'],
  ['hi', 'hola', 'oi', 'salut', 'hai'],
  ['good', 'bueno', 'bom', 'bon', 'baik'],
  ['morning', 'mañana', 'manhã', 'matin', 'pagi'],
  ['night', 'noche', 'noite', 'nuit', 'malam'],
  ['thanks', 'gracias', 'obrigado', 'merci', 'terima kasih'],
  ['yes', 'sí', 'sim', 'oui', 'ya'],
  ['no', 'no', 'não', 'non', 'tidak'],
  ['friend', 'amigo', 'amigo', 'ami', 'teman'],
  ['beautiful', 'hermosa', 'linda', 'belle', 'cantik'],
  ['love', 'amor', 'amor', 'amour', 'cinta'],
  ['you', 'tú', 'você', 'toi', 'kamu'],
  ['how', 'cómo', 'como', 'comment', 'bagaimana'],
  ['where', 'dónde', 'onde', 'où', 'di mana'],
  ['call', 'llamada', 'chamada', 'appel', 'panggilan'],
  ['please', 'por favor', 'por favor', 's\'il te plaît', 'tolong'],
  ['gift', 'regalo', 'presente', 'cadeau', 'hadiah'],
  ['miss', 'extraño', 'saudade', 'manque', 'rindu'],
];

/** word (lower case) → its first row, per language ('hola' is 'hello' before it is 'hi'). */
const INDEX: ReadonlyMap<BookLanguage, ReadonlyMap<string, number>> = new Map(
  BOOK_LANGUAGES.map((lang, col) => [lang, new Map(PHRASE_BOOK.map((row, i) => [row[col]!, i] as const).reverse())]),
);

const WORD = /\p{L}+/gu;
const isBookLanguage = (lang: string): lang is BookLanguage => (BOOK_LANGUAGES as readonly string[]).includes(lang);

/** The phrase-book language whose words the text uses most; English, with a low score, when none. */
export function detectLanguage(text: string): { language: string; score: number } {
  const words = (text.match(WORD) ?? []).map((w) => w.toLowerCase());
  let best: BookLanguage = 'en';
  let hits = 0;
  for (const lang of BOOK_LANGUAGES) {
    const n = words.filter((w) => INDEX.get(lang)!.has(w)).length;
    if (n > hits) [best, hits] = [lang, n];
  }
  return hits === 0 ? { language: 'en', score: 0.5 } : { language: best, score: Math.min(1, 0.6 + hits / (words.length * 2.5)) };
}

/** Word-by-word through the phrase-book; unknown words stay; no known word at all gives the tagged text. */
export function fakeTranslate(text: string, from: string, to: string): string {
  if (from === to) return text;
  const source = isBookLanguage(from) ? INDEX.get(from) : undefined;
  const col = BOOK_LANGUAGES.indexOf(to as BookLanguage);
  let known = 0;
  const out = source && col >= 0
    ? text.replace(WORD, (word) => {
      const row = source.get(word.toLowerCase());
      if (row === undefined) return word;
      known += 1;
      const target = PHRASE_BOOK[row]![col]!;
      return word[0] === word[0]!.toUpperCase() ? target[0]!.toUpperCase() + target.slice(1) : target;
    })
    : text;
  return known > 0 ? out : `[${to}] ${text}`;
}

/**
 * The stand-in's translation of one text into `to`, the source detected as the endpoint does
 * when no `from` is given: what the server itself asks of a translator (a call's chat line,
 * server/api/call-translation.ts) where no cloud translator is configured.
 */
export function translateByStandIn(text: string, to: string): string {
  return fakeTranslate(text, detectLanguage(text).language, to);
}

/** Query values as a list (`to` may repeat). */
function list(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function fail(reply: FastifyReply, [code, message]: TranslatorErrorCode): FastifyReply {
  const body: TranslatorError = { error: { code, message } };
  return reply.code(Math.floor(code / 1000)).header('cache-control', 'no-store').send(body);
}

/** Registers POST TRANSLATOR_LOCAL_PATH (plain JSON, no session: the subscription key is the credential). */
export async function translatorStandIn(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  const appSettings = appConfig(db);
  const config = () => {
    try {
      const parsed = TranslatorConfig.safeParse(JSON.parse(appSettings.get(ConfigKey.translator) ?? 'null'));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  };

  // Bodies are read as text here and parsed below, so that bad JSON gets Microsoft's answer.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: TRANSLATOR_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.statusCode === 413) return fail(reply, TranslatorErrorCode.requestTooLarge);
    if (error.statusCode === 415) return fail(reply, TranslatorErrorCode.contentType);
    if (error.statusCode !== undefined && error.statusCode < 500) return fail(reply, TranslatorErrorCode.invalidInput);
    request.log.error(error);
    return fail(reply, TranslatorErrorCode.internal);
  });

  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: TRANSLATOR_LOCAL_PATH,
    handler: (_request, reply) => fail(reply, TranslatorErrorCode.methodNotAllowed),
  });

  app.post(TRANSLATOR_LOCAL_PATH, { bodyLimit: TRANSLATOR_BODY_LIMIT }, async (request, reply) => {
    // Microsoft checks the credentials before anything else.
    const cfg = config();
    const key = header(request, TranslatorHeader.key);
    const region = header(request, TranslatorHeader.region);
    // A missing config still costs one comparison, so timing tells nothing.
    const keyOk = sameSecret(key, cfg?.key ?? '\u0000') && key !== '';
    if (!cfg || !keyOk || region.toLowerCase() !== cfg.region.toLowerCase()) return fail(reply, TranslatorErrorCode.unauthorized);

    const query = request.query as Record<string, unknown>;
    if (list(query['api-version'])[0] !== TRANSLATOR_API_VERSION) return fail(reply, TranslatorErrorCode.invalidApiVersion);
    const targets = list(query.to);
    if (targets.length === 0 || !targets.every((t) => LANGUAGES.has(t))) return fail(reply, TranslatorErrorCode.invalidTo);
    const from = list(query.from)[0];
    if (from !== undefined && !LANGUAGES.has(from)) return fail(reply, TranslatorErrorCode.invalidFrom);
    if (!/^application\/json\b/i.test(header(request, 'content-type'))) return fail(reply, TranslatorErrorCode.contentType);

    let json: unknown;
    try {
      json = JSON.parse(typeof request.body === 'string' ? request.body : '');
    } catch {
      return fail(reply, TranslatorErrorCode.invalidJson);
    }
    const parsed = TranslateRequest.safeParse(json);
    if (!parsed.success) return fail(reply, TranslatorErrorCode.invalidText);
    const texts = parsed.data.map((item) => item.Text);
    if (texts.length === 0) return fail(reply, TranslatorErrorCode.invalidText);
    if (texts.length > TRANSLATOR_MAX_ELEMENTS) return fail(reply, TranslatorErrorCode.tooManyElements);
    if (texts.reduce((n, t) => n + t.length, 0) > TRANSLATOR_MAX_CHARACTERS) return fail(reply, TranslatorErrorCode.textTooLong);

    const answer: TranslateResponse = texts.map((text) => {
      const detected = from === undefined ? detectLanguage(text) : undefined;
      const source = from ?? detected!.language;
      return {
        ...(detected ? { detectedLanguage: detected } : {}),
        translations: targets.map((to) => ({ text: fakeTranslate(text, source, to), to })),
      };
    });
    return reply.header('cache-control', 'no-store').send(answer);
  });
}
