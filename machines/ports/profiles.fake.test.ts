/** The profiles contract against the in-memory fake, and the fake's manual mode. */
import { describe, expect, it } from 'vitest';
import { FakeProfilesPort } from './profiles.fake';
import { registerProfilesContract } from './profiles.contract';
import type { ChatProfile } from './profiles.port';

registerProfilesContract('in-memory fake', () => {
  const sofia: ChatProfile = { nickname: 'Sofia', icon: '/a/host1.svg', onlineStatus: 3, userId: 100001, userType: 2, isVip: false, living: false };
  const alex: ChatProfile = { nickname: 'Alex', icon: '/a/user1.svg', onlineStatus: 1, userId: 200001, userType: 1, isVip: true, living: false };
  const port = new FakeProfilesPort('auto', { profiles: { 'yx-sofia': sofia, 'yx-alex': alex }, customerService: 'yx-service' });
  return {
    port,
    known: [{ account: 'yx-sofia', profile: sofia }, { account: 'yx-alex', profile: alex }],
    unknownAccount: 'yx-nobody',
    block: (account) => { port.people.set(account, { ...port.people.get(account)!, blocked: true }); },
    customerService: 'yx-service',
    noCustomerService: () => { port.customerServiceAccount = null; },
    dispose: () => {},
  };
});

describe('FakeProfilesPort', () => {
  it('manual mode: waits for the test, under the names the session\'s tests settle', async () => {
    const port = new FakeProfilesPort('manual');
    const found = port.lookup(['yx-a']);
    const service = port.customerService();
    expect(port.pending.next('lookupProfiles').args).toEqual([['yx-a']]);
    port.pending.next('lookupProfiles').resolve({ 'yx-a': { nickname: 'A', icon: '', onlineStatus: 3 } });
    port.pending.next('customerServiceAccount').resolve('yx-service');
    expect(Object.keys(await found)).toEqual(['yx-a']);
    expect(await service).toBe('yx-service');
    expect(port.lookups).toEqual([['yx-a']]);
  });

  it('reads blocks from another fake when given one', async () => {
    const blocked = new Set(['yx-a']);
    const port = new FakeProfilesPort('auto', {
      profiles: { 'yx-a': { nickname: 'A', icon: '', onlineStatus: 3 }, 'yx-b': { nickname: 'B', icon: '', onlineStatus: 3, blocked: true } },
      isBlocked: (account) => blocked.has(account),
    });
    const found = await port.lookup(['yx-a', 'yx-b']);
    expect([found['yx-a']!.blocked, found['yx-b']!.blocked]).toEqual([true, false]);
  });
});
