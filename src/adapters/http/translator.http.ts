/**
 * The translator port over Microsoft Translator v3 `translate` (SPEC §7: the one unencrypted
 * call). A plain JSON POST with the subscription key and region headers:
 *
 *   POST <endpoint>?api-version=3.0&to=<lang>   body [{ "Text": "…" }]
 *
 * Key, region and endpoint come from the `microsoft_translator_config` app config value
 * (SPEC §3), read at the first translation and kept; a config that could not be read is
 * asked for again next time, and a refused key drops the kept one (it may have been
 * rotated). Without an endpoint the config means Microsoft's global address; a relative one
 * (the reference server's stand-in) is taken from the API host.
 */
import type { Translation, TranslatorPort } from '../../../machines/ports/translator.port';
import { TranslatorError, TranslatorText } from '../../../machines/ports/translator.port';
import type { ApiClient } from '../../api/client';
import { REQUEST_TIMEOUT_MS } from '../../api/codes';
import * as configContract from '../../api/contract/config';
import {
  TRANSLATOR_API_VERSION, TRANSLATOR_MICROSOFT_ENDPOINT, TranslateResponse, TranslatorConfig,
  TranslatorError as TranslatorErrorBody, TranslatorHeader,
} from '../../api/contract/translator';

export interface HttpTranslatorDeps {
  /** The `microsoft_translator_config` value (JSON text); undefined when the app has none. */
  loadConfig: () => Promise<string | undefined>;
  /** What a relative endpoint is relative to: the API host. */
  origin: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface Settings {
  url: URL;
  key: string;
  region: string;
}

/** Reads `microsoft_translator_config` through the encrypted API (/api/index/getConfigByKey). */
export function translatorConfigFromApi(api: ApiClient): () => Promise<string | undefined> {
  const { ConfigKey, getConfigByKey } = configContract;
  return async () => {
    // The caller shows the failure; no second message from the API's toast.
    const values = await api.data(getConfigByKey, { searchValue: ConfigKey.translator }, { silent: true });
    return values[ConfigKey.translator];
  };
}

function settingsOf(value: string | undefined, origin: string): Settings {
  let parsed: TranslatorConfig | undefined;
  try {
    const result = TranslatorConfig.safeParse(JSON.parse(value ?? 'null'));
    if (result.success) parsed = result.data;
  } catch {
    // Not JSON: the same as no config.
  }
  if (!parsed || parsed.key.trim() === '') throw new TranslatorError('notConfigured', TranslatorText.notConfigured);
  let url: URL;
  try {
    url = new URL(parsed.endpoint?.trim() || TRANSLATOR_MICROSOFT_ENDPOINT, origin);
  } catch {
    throw new TranslatorError('notConfigured', TranslatorText.notConfigured);
  }
  return { url, key: parsed.key, region: parsed.region };
}

async function jsonOf(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text());
  } catch {
    return undefined;
  }
}

/** A refusal in Microsoft's `{ error: { code, message } }` shape, or by status when the body is anything else. */
function failureOf(status: number, body: unknown): TranslatorError {
  const parsed = TranslatorErrorBody.safeParse(body);
  const code = parsed.success ? parsed.data.error.code : status * 1000;
  const group = Math.floor(code / 1000);
  if (status === 401 || group === 401 || status === 403) return new TranslatorError('unauthorized', TranslatorText.unauthorized);
  if (status === 429 || group === 429) return new TranslatorError('busy', TranslatorText.busy);
  if (parsed.success && status < 500 && parsed.data.error.message.trim()) {
    return new TranslatorError('refused', TranslatorText.refused(parsed.data.error.message.trim()));
  }
  if (status >= 500 || status === 408) return new TranslatorError('unreachable', TranslatorText.unreachable);
  return new TranslatorError('malformed', TranslatorText.malformed);
}

export function createHttpTranslator(deps: HttpTranslatorDeps): TranslatorPort {
  const fetchImpl = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;
  let settings: Promise<Settings> | null = null;

  function loadSettings(): Promise<Settings> {
    if (!settings) {
      const loading = deps.loadConfig().then(
        (value) => settingsOf(value, deps.origin),
        (error: unknown) => {
          if (error instanceof TranslatorError) throw error;
          throw new TranslatorError('unreachable', TranslatorText.unreachable);
        },
      );
      settings = loading;
      // Not kept when it failed: the next translation asks again.
      loading.catch(() => { if (settings === loading) settings = null; });
    }
    return settings;
  }

  async function post(target: Settings, text: string, to: string): Promise<Response> {
    const url = new URL(target.url);
    url.searchParams.set('api-version', TRANSLATOR_API_VERSION);
    url.searchParams.set('to', to);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=UTF-8',
      [TranslatorHeader.key]: target.key,
    };
    if (target.region) headers[TranslatorHeader.region] = target.region;
    try {
      return await fetchImpl(url, {
        method: 'POST',
        headers,
        body: JSON.stringify([{ Text: text }]),
        credentials: 'omit',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new TranslatorError('unreachable', timedOut ? TranslatorText.timedOut : TranslatorText.unreachable);
    }
  }

  return {
    async translate(text: string, to: string): Promise<Translation> {
      if (text === '') return { text: '' };
      const target = await loadSettings();
      const response = await post(target, text, to);
      const body = await jsonOf(response);
      if (!response.ok) {
        const failure = failureOf(response.status, body);
        if (failure.kind === 'unauthorized') settings = null;
        throw failure;
      }
      const parsed = TranslateResponse.safeParse(body);
      const first = parsed.success ? parsed.data[0] : undefined;
      const translation = first?.translations.find((t) => t.to === to) ?? first?.translations[0];
      if (!first || !translation) throw new TranslatorError('malformed', TranslatorText.malformed);
      return first.detectedLanguage
        ? { text: translation.text, detectedLanguage: first.detectedLanguage.language }
        : { text: translation.text };
    },
  };
}
