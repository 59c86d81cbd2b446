/**
 * In-memory translator. In auto mode it answers at once from a phrase list (`'es:hello' →
 * 'hola'`); a text it has no phrase for comes back tagged with the language (`[es] …`), as the
 * reference server's stand-in does. In manual mode every call waits for the test
 * (`port.pending.next('translate')`). `languages` and `authorized` imitate the translator's
 * refusals.
 */
import { PendingCalls } from './pending';
import { TranslatorError, TranslatorText } from './translator.port';
import type { Translation, TranslatorPort } from './translator.port';

export interface FakeTranslatorOptions {
  /** `${to}:${text}` → translation. */
  phrases?: Readonly<Record<string, string>>;
  /** Target languages it accepts (default: a few). */
  languages?: readonly string[];
  /** false: every call fails as a wrong key does. */
  authorized?: boolean;
  /** The language it reports as detected. */
  detected?: string;
}

export const FAKE_TRANSLATOR_LANGUAGES = ['en', 'es', 'pt', 'fr', 'id'] as const;
export const TEXT_FAKE_UNKNOWN_TARGET = 'The target language ("To" field) is missing or invalid.';

export class FakeTranslatorPort implements TranslatorPort {
  readonly pending = new PendingCalls();
  /** Every request that reached the translator, in order. */
  readonly requests: { text: string; to: string }[] = [];

  constructor(
    readonly mode: 'auto' | 'manual' = 'auto',
    private readonly options: FakeTranslatorOptions = {},
  ) {}

  async translate(text: string, to: string): Promise<Translation> {
    if (text === '') return { text: '' };
    this.requests.push({ text, to });
    if (this.mode === 'manual') return this.pending.add<Translation>('translate', [text, to]);
    if (this.options.authorized === false) throw new TranslatorError('unauthorized', TranslatorText.unauthorized);
    const languages: readonly string[] = this.options.languages ?? FAKE_TRANSLATOR_LANGUAGES;
    if (!languages.includes(to)) throw new TranslatorError('refused', TranslatorText.refused(TEXT_FAKE_UNKNOWN_TARGET));
    const phrase = this.options.phrases?.[`${to}:${text}`];
    return { text: phrase ?? `[${to}] ${text}`, detectedLanguage: this.options.detected ?? 'en' };
  }
}
