/**
 * Translation (SPEC §7: the one unencrypted call, to a translator with a target language
 * and key/region headers; SPEC §4 system message -1 is a translated in-call chat line). In
 * product words: a text and the language to put it in; the answer and, when the translator
 * worked it out, the language the text was in.
 */

export interface Translation {
  text: string;
  /** The language the text was written in, when the translator detected it (e.g. 'en'). */
  detectedLanguage?: string;
}

export interface TranslatorPort {
  /**
   * `to` is a language code as the translator knows it ('es', 'pt', 'zh-Hans'). An empty text
   * comes back empty without asking anyone. Rejects with a TranslatorError.
   */
  translate(text: string, to: string): Promise<Translation>;
}

export type TranslatorErrorKind =
  /** The app has no translator set up (no config, or no key). */
  | 'notConfigured'
  /** The translator refused the app's key or region. */
  | 'unauthorized'
  /** Too many requests for now. */
  | 'busy'
  /** The translator refused this request (an unknown language, a text too long, …). */
  | 'refused'
  /** No answer: offline, timed out, or the translator is down. */
  | 'unreachable'
  /** An answer the app could not read. */
  | 'malformed';

/** The readable texts of the failures; `refused` carries the translator's own reason. */
export const TranslatorText = {
  notConfigured: 'Translation is not set up for this app.',
  unauthorized: 'Translation is unavailable: the translator did not accept the app\'s key.',
  busy: 'The translator is busy. Please try again in a moment.',
  refused: (reason: string) => `Translation failed: ${reason}`,
  unreachable: 'Translation failed: the translator could not be reached. Please try again.',
  timedOut: 'Translation failed: the translator did not answer in time. Please try again.',
  malformed: 'Translation failed: the translator sent an answer the app could not read.',
} as const;

export class TranslatorError extends Error {
  override name = 'TranslatorError';
  constructor(readonly kind: TranslatorErrorKind, message: string) {
    super(message);
  }
}
