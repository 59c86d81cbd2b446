/** The pins contract against the in-memory fake (its instance is the device's storage). */
import { FakePinsPort } from './pins.fake';
import { registerPinsContract } from './pins.contract';

registerPinsContract('in-memory fake', () => {
  const port = new FakePinsPort();
  return { port, reopen: () => port, dispose: () => {} };
});
