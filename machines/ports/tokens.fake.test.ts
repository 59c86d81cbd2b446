/** The tokens contract against the in-memory fake (its tokens checked by the fake IM and signalling logins), and the fake's manual mode. */
import { describe, expect, it } from 'vitest';
import { FakeImNetwork, FakeImPort } from './im.fake';
import { FakeSignallingNetwork, FakeSignallingPort } from './signalling.fake';
import { FakeTokensPort } from './tokens.fake';
import { registerTokensContract } from './tokens.contract';

const logsIn = (login: Promise<void>) => login.then(() => true, () => false);

registerTokensContract('in-memory fake', () => {
  const im = new FakeImNetwork();
  const signalling = new FakeSignallingNetwork();
  for (const account of ['alice', 'bob']) {
    im.register(account, `${account}-first-im-token`);
    signalling.register(account, `${account}-first-rtm-token`);
  }
  return {
    port: new FakeTokensPort('alice', 'auto', { im, signalling }),
    account: 'alice',
    otherAccount: 'bob',
    rtmAccepted: (account, token) => logsIn(new FakeSignallingPort(signalling).login(account, token)),
    imAccepted: (account, token) => logsIn(new FakeImPort(im).login(account, token)),
    signedOutPort: () => new FakeTokensPort('alice', 'auto', { im, signalling, signedIn: false }),
    dispose: () => {},
  };
});

describe('FakeTokensPort manual mode', () => {
  it('waits for the test, as rtmToken and refreshImToken', async () => {
    const port = new FakeTokensPort('alice', 'manual');
    const rtm = port.rtm();
    const im = port.refreshIm();
    port.pending.next('rtmToken').resolve('rtm-1');
    port.pending.next('refreshImToken').resolve('im-1');
    expect([await rtm, await im]).toEqual(['rtm-1', 'im-1']);
    expect(port.issued).toEqual([]);
  });
});
