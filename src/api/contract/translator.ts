/**
 * The translator call (SPEC §7 "Translation is the exception: unencrypted POST to a
 * translator with target language and key/region headers"): the Microsoft Translator v3
 * `translate` request, which the reference server imitates at TRANSLATOR_LOCAL_PATH. Not an
 * `Endpoint` (those are AES-carried): the body and answer are plain JSON.
 *
 *   POST <endpoint>?api-version=3.0&to=<lang>[&to=<lang>…][&from=<lang>]
 *   Ocp-Apim-Subscription-Key: <key>    Ocp-Apim-Subscription-Region: <region>
 *   Content-Type: application/json      body [{ "Text": "…" }, …]
 *   200 [{ detectedLanguage?: { language, score }, translations: [{ text, to }] }, …]
 *   4xx { error: { code, message } }     (401000: wrong or missing key)
 *
 * `endpoint`, `key` and `region` come from the app config key `microsoft_translator_config`
 * (SPEC §3: key, region; `endpoint` is the reference server's addition, absent means
 * Microsoft's global TRANSLATOR_MICROSOFT_ENDPOINT).
 */
import * as z from 'zod/mini';

export const TRANSLATOR_MICROSOFT_ENDPOINT = 'https://api.cognitive.microsofttranslator.com/translate';
/** The reference server's stand-in (development only). */
export const TRANSLATOR_LOCAL_PATH = '/translator/translate';
export const TRANSLATOR_API_VERSION = '3.0';

export const TranslatorHeader = {
  key: 'Ocp-Apim-Subscription-Key',
  region: 'Ocp-Apim-Subscription-Region',
} as const;

/** Microsoft's limits: at most 1000 texts and 50 000 characters in all per request. */
export const TRANSLATOR_MAX_ELEMENTS = 1000;
export const TRANSLATOR_MAX_CHARACTERS = 50_000;

/** The value of the `microsoft_translator_config` app config key (a JSON string). */
export const TranslatorConfig = z.object({
  key: z.string(),
  region: z.string(),
  endpoint: z.optional(z.string()),
});
export type TranslatorConfig = z.output<typeof TranslatorConfig>;

export const TranslateRequest = z.array(z.object({ Text: z.string() }));
export type TranslateRequest = z.output<typeof TranslateRequest>;

export const TranslateResult = z.object({
  /** Present when the request gave no `from`. */
  detectedLanguage: z.optional(z.object({ language: z.string(), score: z.number() })),
  translations: z.array(z.object({ text: z.string(), to: z.string() })),
});
export const TranslateResponse = z.array(TranslateResult);
export type TranslateResponse = z.output<typeof TranslateResponse>;

export const TranslatorError = z.object({ error: z.object({ code: z.number(), message: z.string() }) });
export type TranslatorError = z.output<typeof TranslatorError>;
