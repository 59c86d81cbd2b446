/** The translator stand-in: loads its adapter once, with the first translation; a failed load is "unreachable" and is tried again. */
import { describe, expect, it } from 'vitest';
import { TranslatorError, TranslatorText } from '../../machines/ports/translator.port';
import type { TranslatorPort } from '../../machines/ports/translator.port';
import { lazyTranslator } from './translator';

const echo: TranslatorPort = { translate: async (text, to) => ({ text: `${to}:${text}` }) };

describe('lazyTranslator', () => {
  it('loads nothing until asked, then loads once for every translation', async () => {
    let loads = 0;
    const translator = lazyTranslator(async () => { loads++; return echo; });
    expect(loads).toBe(0);
    expect(await translator.translate('hola', 'en')).toEqual({ text: 'en:hola' });
    expect(await translator.translate('adiós', 'en')).toEqual({ text: 'en:adiós' });
    expect(loads).toBe(1);
  });

  it('a load that fails is the translator out of reach, and the next translation loads again', async () => {
    let loads = 0;
    const translator = lazyTranslator(async () => {
      loads++;
      if (loads === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return echo;
    });
    const error = await translator.translate('hola', 'en').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TranslatorError);
    expect(error).toMatchObject({ kind: 'unreachable', message: TranslatorText.unreachable });
    expect(await translator.translate('hola', 'en')).toEqual({ text: 'en:hola' });
    expect(loads).toBe(2);
  });

  it("the adapter's own refusals pass through unchanged", async () => {
    const refusal = new TranslatorError('busy', TranslatorText.busy);
    const translator = lazyTranslator(async () => ({ translate: () => Promise.reject(refusal) }));
    await expect(translator.translate('hola', 'en')).rejects.toBe(refusal);
  });
});
