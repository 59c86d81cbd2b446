/**
 * The HTTP translator against the reference server's Microsoft Translator v3 stand-in
 * (SPEC §7 translation): the port contract, the config read once through the encrypted API,
 * and every failure Microsoft can answer, a wrong key and an unreadable answer included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranslatorError, TranslatorText } from '../../machines/ports/translator.port';
import { registerTranslatorContract } from '../../machines/ports/translator.contract';
import { rejectionOf } from '../../machines/ports/contract.support';
import { SEED_PASSWORD } from '../../server/db/seed';
import { codec, device, startTestServer } from '../../server/testing/harness';
import type { TestServer } from '../../server/testing/harness';
import { createApiClient } from '../api/client';
import type { ApiNotice } from '../api/outcome';
import { endpoints } from '../api/contract';
import { ConfigKey } from '../api/contract/config';
import { TRANSLATOR_LOCAL_PATH, TRANSLATOR_MICROSOFT_ENDPOINT, TranslatorConfig } from '../api/contract/translator';
import { createHttpTranslator, translatorConfigFromApi } from './translator.http';

let server: TestServer;
let token: string;
const notices: ApiNotice[] = [];

beforeAll(async () => {
  server = await startTestServer({ build: false });
  const signedIn = await server.call(endpoints.login, { ...device, account: 'host1@example.com', password: SEED_PASSWORD });
  token = signedIn.data!.token;
});
afterAll(() => server.close());

const api = () => createApiClient({
  baseUrl: server.base,
  codec,
  credentials: () => ({ token, appId: 'test-app' }),
  onNotice: (n) => notices.push(n),
});

/** The seeded config as the app reads it, through /api/index/getConfigByKey. */
const seededConfig = () => translatorConfigFromApi(api());

/** The seeded config with some fields changed. */
const configWith = (change: Partial<TranslatorConfig>) => async () =>
  JSON.stringify({ ...TranslatorConfig.parse(JSON.parse((await seededConfig()())!)), ...change });

const translator = (loadConfig = seededConfig(), fetchImpl?: typeof fetch) =>
  createHttpTranslator({ loadConfig, origin: server.base, ...(fetchImpl ? { fetch: fetchImpl } : {}) });

async function failureOf(promise: Promise<unknown>): Promise<TranslatorError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(TranslatorError);
  return error as TranslatorError;
}

registerTranslatorContract('HTTP adapter over the reference server\'s stand-in', () => ({
  port: translator(),
  unauthorizedPort: () => translator(configWith({ key: 'wrong-key' })),
  sample: { text: 'hello', to: 'es', translated: 'hola', detected: 'en' },
  dispose: () => {},
}));

describe('[§7 translation] the HTTP translator', () => {
  it('reads microsoft_translator_config once, at the first translation, and keeps it', async () => {
    let loads = 0;
    const load = seededConfig();
    const port = translator(() => { loads += 1; return load(); });
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([port.translate('good morning', 'pt'), port.translate('thanks', 'fr')]);
    expect(a).toEqual({ text: 'bom manhã', detectedLanguage: 'en' });
    expect(b.text).toBe('merci');
    await port.translate('hello', 'id');
    expect(loads).toBe(1);
  });

  it('asks for the config again when reading it failed', async () => {
    let loads = 0;
    const load = seededConfig();
    const port = translator(() => { loads += 1; return loads === 1 ? Promise.reject(new Error('offline')) : load(); });
    const failure = await failureOf(port.translate('hello', 'es'));
    expect(failure.kind).toBe('unreachable');
    expect(failure.message).toBe(TranslatorText.unreachable);
    expect((await port.translate('hello', 'es')).text).toBe('hola');
    expect(loads).toBe(2);
  });

  it('[401000] a wrong key is unauthorized, with a readable message, and the kept config is dropped', async () => {
    let loads = 0;
    const wrong = configWith({ key: 'wrong-key' });
    const port = translator(() => { loads += 1; return wrong(); });
    for (let i = 1; i <= 2; i++) {
      const failure = await failureOf(port.translate('hello', 'es'));
      expect(failure.kind).toBe('unauthorized');
      expect(failure.message).toBe(TranslatorText.unauthorized);
      expect(loads).toBe(i);
    }
    const wrongRegion = await failureOf(translator(configWith({ region: 'westeurope' })).translate('hello', 'es'));
    expect(wrongRegion.kind).toBe('unauthorized');
  });

  it('passes Microsoft\'s reason for a refused request on', async () => {
    const failure = await failureOf(translator().translate('hello', 'xx-unknown'));
    expect(failure.kind).toBe('refused');
    expect(failure.message).toBe(TranslatorText.refused('The target language ("To" field) is missing or invalid.'));
  });

  it('a text Microsoft would refuse as too long gets its reason too', async () => {
    const failure = await failureOf(translator().translate('a'.repeat(50_001), 'es'));
    expect(failure).toMatchObject({ kind: 'refused', message: TranslatorText.refused('The input text is too long.') });
  });

  it('an answer that is not JSON (an endpoint that is not a translator) is malformed, not a crash', async () => {
    // The encrypted API answers any POST with AES text.
    const port = translator(configWith({ endpoint: endpoints.getConfigByKey.path }));
    const failure = await failureOf(port.translate('hello', 'es'));
    expect(failure).toMatchObject({ kind: 'malformed', message: TranslatorText.malformed });
  });

  it('JSON of the wrong shape, or with no translation, is malformed', async () => {
    for (const body of ['{"translations":[]}', '[]', '[{"translations":[]}]', '[{"translations":[{"text":5}]}]', 'null']) {
      const port = translator(seededConfig(), async (input, init) => {
        const real = await fetch(input, init);
        expect(real.status).toBe(200);
        return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
      });
      expect(await failureOf(port.translate('hello', 'es'))).toMatchObject({ kind: 'malformed' });
    }
  });

  it('a 429 is busy; a 5xx or an unreadable error body says the translator is unavailable', async () => {
    const answering = (status: number, body: string) => translator(seededConfig(), async () => new Response(body, { status }));
    expect(await failureOf(answering(429, '{"error":{"code":429001,"message":"The server rejected the request because the client has exceeded request limits."}}').translate('hi', 'es')))
      .toMatchObject({ kind: 'busy', message: TranslatorText.busy });
    expect(await failureOf(answering(503, '<html>Service Unavailable</html>').translate('hi', 'es')))
      .toMatchObject({ kind: 'unreachable', message: TranslatorText.unreachable });
    expect(await failureOf(answering(500, '{"error":{"code":500000,"message":"An unexpected error occurred."}}').translate('hi', 'es')))
      .toMatchObject({ kind: 'unreachable' });
    expect(await failureOf(answering(400, 'Bad Request').translate('hi', 'es'))).toMatchObject({ kind: 'malformed' });
  });

  it('no server at the address is unreachable; no answer in time says so', async () => {
    const down = createHttpTranslator({ loadConfig: configWith({ endpoint: 'http://127.0.0.1:9/translate' }), origin: server.base });
    expect(await failureOf(down.translate('hello', 'es'))).toMatchObject({ kind: 'unreachable', message: TranslatorText.unreachable });
    const slow = createHttpTranslator({
      loadConfig: seededConfig(),
      origin: server.base,
      timeoutMs: 20,
      fetch: (_input, init) => new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
      }),
    });
    expect(await failureOf(slow.translate('hello', 'es'))).toMatchObject({ kind: 'unreachable', message: TranslatorText.timedOut });
  });

  it('no config, a config that is not JSON, or one without a key: not set up', async () => {
    for (const value of [undefined, 'not json', '{"region":"local"}', '{"key":"  ","region":"local"}']) {
      const port = translator(async () => value);
      expect(await failureOf(port.translate('hello', 'es'))).toMatchObject({
        kind: 'notConfigured', message: TranslatorText.notConfigured,
      });
    }
  });

  it('sends Microsoft\'s request: unencrypted JSON, key and region headers, api-version and to; Microsoft\'s global address without an endpoint', async () => {
    const seen: { url: string; method: string | undefined; headers: Headers; body: unknown; credentials: RequestCredentials | undefined }[] = [];
    const port = createHttpTranslator({
      loadConfig: async () => JSON.stringify({ key: 'k-123', region: 'eastus' }),
      origin: server.base,
      fetch: async (input, init) => {
        seen.push({
          url: String(input), method: init?.method, headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)),
          credentials: init?.credentials,
        });
        return Response.json([{ detectedLanguage: { language: 'en', score: 1 }, translations: [{ text: 'hola', to: 'es' }] }]);
      },
    });
    expect(await port.translate('hello "you"', 'es')).toEqual({ text: 'hola', detectedLanguage: 'en' });
    const [request] = seen;
    expect(request!.url).toBe(`${TRANSLATOR_MICROSOFT_ENDPOINT}?api-version=3.0&to=es`);
    expect(request!.method).toBe('POST');
    expect(request!.headers.get('Ocp-Apim-Subscription-Key')).toBe('k-123');
    expect(request!.headers.get('Ocp-Apim-Subscription-Region')).toBe('eastus');
    expect(request!.headers.get('content-type')).toMatch(/^application\/json/);
    expect(request!.body).toEqual([{ Text: 'hello "you"' }]);
    expect(request!.credentials).toBe('omit');
  });

  it('the seeded config points at the stand-in on the API host, and a translation there leaves the API notices alone', async () => {
    expect(TranslatorConfig.parse(JSON.parse((await seededConfig()())!)).endpoint).toBe(TRANSLATOR_LOCAL_PATH);
    notices.length = 0;
    expect(await translator().translate('Hola amigo', 'en')).toEqual({ text: 'Hello friend', detectedLanguage: 'es' });
    expect(notices).toEqual([]);
  });

  it(`a refused ${ConfigKey.translator} lookup (no session) means the translator cannot be reached`, async () => {
    const signedOut = createApiClient({ baseUrl: server.base, codec, credentials: () => null, onNotice: () => {} });
    const port = createHttpTranslator({ loadConfig: translatorConfigFromApi(signedOut), origin: server.base });
    expect(await failureOf(port.translate('hello', 'es'))).toMatchObject({ kind: 'unreachable' });
  });
});
