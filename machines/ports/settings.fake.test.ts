/** The settings contract against the in-memory fake, and the fake's manual mode. */
import { describe, expect, it } from 'vitest';
import { PendingCalls } from './pending';
import { FakeSettingsPort } from './settings.fake';
import { registerSettingsContract } from './settings.contract';

registerSettingsContract('in-memory fake', () => {
  const port = new FakeSettingsPort();
  return {
    port,
    store: (value) => { port.value = value; },
    refusedPort: () => new FakeSettingsPort('auto', { refused: true }),
    dispose: () => {},
  };
});

describe('FakeSettingsPort', () => {
  it('answers the seed\'s minute by default', async () => {
    expect(await new FakeSettingsPort().idleMinutes()).toBe(1);
  });

  it('manual mode: waits for the test on a shared pending list, as loadIdleMinutes', async () => {
    const pending = new PendingCalls();
    const port = new FakeSettingsPort('manual', {}, pending);
    const minutes = port.idleMinutes();
    pending.next('loadIdleMinutes').resolve(7);
    expect(await minutes).toBe(7);
    expect(port.reads).toBe(1);
  });
});
