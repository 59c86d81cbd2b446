/**
 * The translator of the app (SPEC §7, adapters/translator.http.ts) as a small stand-in, like
 * the RTC port (rtc.ts): translating is something a person asks for in a chat, so the
 * adapter is not in the first screen's chunk; it is imported with the first translation.
 * A failed import is the translator being out of reach (the person can try again).
 */
import type { TranslatorPort } from '../../machines/ports/translator.port';
import { TranslatorError, TranslatorText } from '../../machines/ports/translator.port';
import type { ApiClient } from '../api/client';

/** The translator whose code loads with the first translation. */
export function lazyTranslator(load: () => Promise<TranslatorPort>): TranslatorPort {
  let loading: Promise<TranslatorPort> | null = null;
  return {
    async translate(text, to) {
      loading ??= load().catch((error: unknown) => {
        loading = null;
        throw error;
      });
      let translator: TranslatorPort;
      try {
        translator = await loading;
      } catch {
        throw new TranslatorError('unreachable', TranslatorText.unreachable);
      }
      return translator.translate(text, to);
    },
  };
}

/** The HTTP translator (config read through the API); a relative endpoint is on the API host. */
export function createTranslatorPort(api: ApiClient, apiBase: string): TranslatorPort {
  return lazyTranslator(async () => {
    const { createHttpTranslator, translatorConfigFromApi } = await import('../adapters/translator.http');
    return createHttpTranslator({
      loadConfig: translatorConfigFromApi(api),
      origin: new URL(apiBase || '/', window.location.href).href,
    });
  });
}
