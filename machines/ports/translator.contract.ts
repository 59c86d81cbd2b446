/**
 * The translator port's contract (SPEC §7 translation), run against the in-memory fake
 * (translator.fake.test.ts) and the HTTP adapter over the reference server's Microsoft
 * Translator stand-in (src/adapters/translator.http.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { perTest, rejectionOf } from './contract.support';
import { TranslatorError } from './translator.port';
import type { TranslatorErrorKind, TranslatorPort } from './translator.port';

export interface TranslatorContractRig {
  port: TranslatorPort;
  /** A port whose key the translator refuses. */
  unauthorizedPort(): TranslatorPort;
  /** A phrase this translator knows: `text` in `to` is `translated`, written in `detected`. */
  sample: { text: string; to: string; translated: string; detected: string };
  dispose(): void | Promise<void>;
}

export type TranslatorRigFactory = () => TranslatorContractRig | Promise<TranslatorContractRig>;

async function expectFailure(promise: Promise<unknown>, kind: TranslatorErrorKind): Promise<TranslatorError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(TranslatorError);
  const failure = error as TranslatorError;
  expect(failure.kind).toBe(kind);
  // Readable: a sentence, not a status code or a JSON dump.
  expect(failure.message).toMatch(/^[A-Z].{10,}/);
  expect(failure.message).not.toMatch(/[{}]/);
  return failure;
}

export function registerTranslatorContract(name: string, factory: TranslatorRigFactory): void {
  describe(`[contract] translator port: ${name}`, () => {
    const t = perTest(factory);

    it('[§7] translates a text into the target language and says what it was written in', async () => {
      const { text, to, translated, detected } = t.rig.sample;
      expect(await t.rig.port.translate(text, to)).toEqual({ text: translated, detectedLanguage: detected });
    });

    it('gives a text back whole, quotes, line breaks and emoji included', async () => {
      const text = 'Zzqx "quoted" <b>&amp;</b>\nsecond line 😀';
      const result = await t.rig.port.translate(text, 'es');
      expect(result.text).toContain(text);
    });

    it('answers an empty text with an empty text', async () => {
      expect(await t.rig.port.translate('', 'es')).toEqual({ text: '' });
    });

    it('refuses an unknown target language with the translator\'s reason', async () => {
      const failure = await expectFailure(t.rig.port.translate('hello', 'klingon'), 'refused');
      expect(failure.message).toMatch(/language/i);
    });

    it('refuses a wrong key as unauthorized', async () => {
      await expectFailure(t.rig.unauthorizedPort().translate('hello', 'es'), 'unauthorized');
    });
  });
}
