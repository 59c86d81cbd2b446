import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/contract';
import { ConfigKey } from '../../src/api/contract/config';
import {
  TRANSLATOR_API_VERSION, TRANSLATOR_LOCAL_PATH, TRANSLATOR_MAX_CHARACTERS, TRANSLATOR_MAX_ELEMENTS, TranslateResponse,
  TranslatorConfig, TranslatorError, TranslatorHeader,
} from '../../src/api/contract/translator';
import { SEED_PASSWORD } from '../db/seed';
import { device, startTestServer, type TestServer } from '../testing/harness';
import { detectLanguage, fakeTranslate, TRANSLATOR_BODY_LIMIT } from './translator';

let server: TestServer;
let config: TranslatorConfig;
beforeAll(async () => {
  server = await startTestServer({ build: false });
  // As the app does: the translator's address and credentials come from the app config (SPEC §3).
  const signedIn = await server.call(endpoints.login, { ...device, account: 'host1@example.com', password: SEED_PASSWORD });
  const res = await server.call(endpoints.getConfigByKey, { searchValue: ConfigKey.translator }, { token: signedIn.data!.token });
  config = TranslatorConfig.parse(JSON.parse(res.data![ConfigKey.translator]!));
});
afterAll(() => server.close());

interface Options {
  query?: string;
  key?: string | null;
  region?: string | null;
  contentType?: string | null;
}

async function translate(body: unknown, { query = `api-version=${TRANSLATOR_API_VERSION}&to=es`, ...o }: Options = {}) {
  const headers: Record<string, string> = {};
  const key = o.key === undefined ? config.key : o.key;
  const region = o.region === undefined ? config.region : o.region;
  const contentType = o.contentType === undefined ? 'application/json; charset=UTF-8' : o.contentType;
  if (key !== null) headers[TranslatorHeader.key] = key;
  if (region !== null) headers[TranslatorHeader.region] = region;
  if (contentType !== null) headers['content-type'] = contentType;
  const res = await fetch(`${server.base}${config.endpoint}?${query}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, contentType: res.headers.get('content-type'), json: (await res.json()) as unknown };
}

const errorCode = (json: unknown) => TranslatorError.parse(json).error.code;

describe('[§7 translation] the local Microsoft Translator v3 stand-in', () => {
  it('is what the seeded microsoft_translator_config points at', () => {
    expect(config).toEqual({ key: 'dev-translator-key', region: 'local', endpoint: TRANSLATOR_LOCAL_PATH });
  });

  it('answers Microsoft\'s shape in plain JSON: the detected language and one translation per target', async () => {
    const res = await translate([{ Text: 'Hello friend, you are beautiful!' }, { Text: 'Hola amigo' }], {
      query: `api-version=3.0&to=es&to=fr`,
    });
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^application\/json/);
    const answer = TranslateResponse.parse(res.json);
    expect(answer).toHaveLength(2);
    expect(answer[0]).toEqual({
      detectedLanguage: { language: 'en', score: expect.any(Number) as number },
      translations: [
        { text: 'Hola amigo, tú are hermosa!', to: 'es' },
        { text: 'Bonjour ami, toi are belle!', to: 'fr' },
      ],
    });
    expect(answer[1]!.detectedLanguage!.language).toBe('es');
    expect(answer[1]!.translations).toEqual([{ text: 'Hola amigo', to: 'es' }, { text: 'Bonjour ami', to: 'fr' }]);
  });

  it('takes `from` instead of detecting, and tags a text it has no word for', async () => {
    const res = await translate([{ Text: 'obrigado' }, { Text: 'Zzz qwerty' }], { query: 'api-version=3.0&from=pt&to=en' });
    expect(res.json).toEqual([
      { translations: [{ text: 'thanks', to: 'en' }] },
      { translations: [{ text: '[en] Zzz qwerty', to: 'en' }] },
    ]);
  });

  it('[401000] refuses a wrong, missing or empty key and a wrong region, in Microsoft\'s error shape', async () => {
    for (const o of [{ key: 'wrong-key' }, { key: null }, { key: '' }, { region: 'westeurope' }, { region: null }]) {
      const res = await translate([{ Text: 'hello' }], o);
      expect(res.status).toBe(401);
      expect(res.json).toEqual({
        error: { code: 401000, message: 'The request is not authorized because credentials are missing or invalid.' },
      });
    }
  });

  it('checks the credentials before anything else', async () => {
    const res = await translate('not json', { key: 'wrong-key', query: 'to=xx' });
    expect(errorCode(res.json)).toBe(401000);
  });

  it('refuses a missing api-version (400021), a missing or unknown target (400036) and an unknown source (400035)', async () => {
    expect(errorCode((await translate([{ Text: 'hi' }], { query: 'to=es' })).json)).toBe(400021);
    expect(errorCode((await translate([{ Text: 'hi' }], { query: 'api-version=2.0&to=es' })).json)).toBe(400021);
    expect(errorCode((await translate([{ Text: 'hi' }], { query: 'api-version=3.0' })).json)).toBe(400036);
    const unknownTo = await translate([{ Text: 'hi' }], { query: 'api-version=3.0&to=es&to=klingon' });
    expect(unknownTo.status).toBe(400);
    expect(errorCode(unknownTo.json)).toBe(400036);
    expect(errorCode((await translate([{ Text: 'hi' }], { query: 'api-version=3.0&to=es&from=xx' })).json)).toBe(400035);
  });

  it('refuses a body that is not JSON (400074), not a list of { Text } (400005), or without a JSON content type (415000)', async () => {
    expect(errorCode((await translate('[{"Text": "hi"')).json)).toBe(400074);
    for (const body of [{ Text: 'hi' }, [{ text: 'hi' }], [{ Text: 5 }], []]) {
      const res = await translate(body);
      expect(res.status).toBe(400);
      expect(errorCode(res.json)).toBe(400005);
    }
    const plain = await translate([{ Text: 'hi' }], { contentType: 'text/plain' });
    expect(plain.status).toBe(415);
    expect(errorCode(plain.json)).toBe(415000);
    expect(errorCode((await translate([{ Text: 'hi' }], { contentType: null })).json)).toBe(415000);
  });

  it(`limits a request to ${TRANSLATOR_MAX_ELEMENTS} texts (400072), ${TRANSLATOR_MAX_CHARACTERS} characters (400050) and its body size (400077)`, async () => {
    const many = Array.from({ length: TRANSLATOR_MAX_ELEMENTS + 1 }, () => ({ Text: 'hi' }));
    expect(errorCode((await translate(many)).json)).toBe(400072);
    expect((await translate(many.slice(1))).status).toBe(200);
    expect(errorCode((await translate([{ Text: 'a'.repeat(TRANSLATOR_MAX_CHARACTERS + 1) }])).json)).toBe(400050);
    const huge = await translate([{ Text: 'a'.repeat(TRANSLATOR_BODY_LIMIT) }]);
    expect(huge.status).toBe(400);
    expect(errorCode(huge.json)).toBe(400077);
  });

  it('[405000] answers another method on its path in Microsoft\'s shape', async () => {
    const get = await fetch(`${server.base}${TRANSLATOR_LOCAL_PATH}?api-version=3.0&to=es`);
    expect(get.status).toBe(405);
    expect(errorCode(await get.json())).toBe(405000);
  });
});

describe('the fake translation', () => {
  it('is deterministic, keeps capitals and punctuation, and leaves unknown words', () => {
    expect(fakeTranslate('Good night, my love.', 'en', 'pt')).toBe('Bom noite, my amor.');
    expect(fakeTranslate('Good night, my love.', 'en', 'pt')).toBe(fakeTranslate('Good night, my love.', 'en', 'pt'));
    expect(fakeTranslate('thanks', 'en', 'id')).toBe('terima kasih');
    expect(fakeTranslate('hello', 'en', 'en')).toBe('hello');
    expect(fakeTranslate('hello', 'en', 'ja')).toBe('[ja] hello');
  });

  it('detects the phrase-book language the text uses most, else English with a low score', () => {
    expect(detectLanguage('bonjour mon ami').language).toBe('fr');
    expect(detectLanguage('selamat pagi teman').language).toBe('id');
    expect(detectLanguage('12345')).toEqual({ language: 'en', score: 0.5 });
  });
});
