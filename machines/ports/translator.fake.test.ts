/** The translator contract against the in-memory fake, and the fake's manual mode. */
import { describe, expect, it } from 'vitest';
import { FakeTranslatorPort } from './translator.fake';
import { registerTranslatorContract } from './translator.contract';

registerTranslatorContract('in-memory fake', () => ({
  port: new FakeTranslatorPort('auto', { phrases: { 'es:hello': 'hola' } }),
  unauthorizedPort: () => new FakeTranslatorPort('auto', { authorized: false }),
  sample: { text: 'hello', to: 'es', translated: 'hola', detected: 'en' },
  dispose: () => {},
}));

describe('FakeTranslatorPort manual mode', () => {
  it('waits for the test to answer, and records what was asked', async () => {
    const port = new FakeTranslatorPort('manual');
    const answer = port.translate('good night', 'fr');
    expect(port.pending.next('translate').args).toEqual(['good night', 'fr']);
    port.pending.next('translate').resolve({ text: 'bonne nuit', detectedLanguage: 'en' });
    expect(await answer).toEqual({ text: 'bonne nuit', detectedLanguage: 'en' });
    expect(port.requests).toEqual([{ text: 'good night', to: 'fr' }]);
  });

  it('does not ask about an empty text', async () => {
    const port = new FakeTranslatorPort('manual');
    expect(await port.translate('', 'fr')).toEqual({ text: '' });
    expect(port.pending.open()).toEqual([]);
  });
});
