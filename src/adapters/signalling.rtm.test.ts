import { describe, expect, it, vi } from 'vitest';
import { SignalAction, TEXT_PEER_UNAVAILABLE } from '../../machines/ports/signalling.port';
import type { SignalEvent, SignallingPort } from '../../machines/ports/signalling.port';
import { RtmCloud, RtmDoubleCode, RtmDoubleSdk } from './doubles/rtm.double';
import { RTM_CONFIG, SignallingError, createRtmSignallingPort, parseSignal } from './signalling.rtm';

interface Device {
  port: SignallingPort;
  sdk: RtmDoubleSdk;
  events: SignalEvent[];
  fetchRtmToken: ReturnType<typeof vi.fn<() => Promise<{ rtmToken: string; rtcToken: string }>>>;
  loads: () => number;
}

function device(cloud: RtmCloud, account: string): Device {
  const sdk = new RtmDoubleSdk(cloud);
  let loads = 0;
  let ids = 0;
  const fetchRtmToken = vi.fn(async () => ({ rtmToken: cloud.tokenFor(account), rtcToken: `rtc-${account}` }));
  const port = createRtmSignallingPort({
    appId: 'agora-app',
    loadSdk: async () => { loads += 1; return sdk; },
    fetchRtmToken,
    now: () => 1_800_000_000_000,
    newId: () => `${account}-sig-${++ids}`,
  });
  const events: SignalEvent[] = [];
  port.subscribe((e) => events.push(e));
  return { port, sdk, events, fetchRtmToken, loads: () => loads };
}

async function loggedIn() {
  const cloud = new RtmCloud();
  const alice = device(cloud, 'alice');
  const bob = device(cloud, 'bob');
  await alice.port.login('alice', 'app-session-token');
  await bob.port.login('bob', 'app-session-token');
  alice.events.length = 0;
  bob.events.length = 0;
  return { cloud, alice, bob };
}

async function rejection(promise: Promise<unknown>): Promise<SignallingError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(SignallingError);
  return error as SignallingError;
}

const signals = (events: SignalEvent[]) => events.flatMap((e) => (e.type === 'signal' ? [e.signal] : []));

describe('Agora RTM signalling adapter: login', () => {
  it('logs in with the token fetched from the API, log upload off, SDK loaded lazily once', async () => {
    const cloud = new RtmCloud();
    const alice = device(cloud, 'alice');
    expect(alice.loads()).toBe(0);
    await alice.port.login('alice', 'ignored');
    expect(alice.fetchRtmToken).toHaveBeenCalledTimes(1);
    const client = alice.sdk.last;
    expect([client.appId, client.userId]).toEqual(['agora-app', 'alice']);
    expect(client.config).toEqual(RTM_CONFIG);
    expect(client.config?.logUpload).toBe(false);
    expect(client.loginCalls).toEqual([{ token: 'rtm-token-alice' }]);
    expect(alice.events).toEqual([{ type: 'connected' }]);
    expect(cloud.isOnline('alice')).toBe(true);
    await alice.port.logout();
    await alice.port.login('alice', 'ignored');
    expect(alice.loads()).toBe(1);
    expect(alice.fetchRtmToken).toHaveBeenCalledTimes(2);
  });

  it.each([RtmDoubleCode.invalidToken, RtmDoubleCode.loginRejected])('a login refused with %i rejects with that code and leaves no listener', async (code) => {
    const cloud = new RtmCloud();
    const alice = device(cloud, 'alice');
    cloud.failNextLogin('alice', code);
    const error = await rejection(alice.port.login('alice', 't'));
    expect(error.code).toBe(code);
    expect(alice.sdk.last.listenerCount).toBe(0);
    expect(alice.events).toEqual([]);
    await expect(alice.port.send('bob', { action: SignalAction.videoCall, channelId: 'c' })).rejects.toThrow(/not logged in/);
  });

  it('a stale token from the API is refused by RTM (-10005)', async () => {
    const cloud = new RtmCloud();
    const alice = device(cloud, 'alice');
    alice.fetchRtmToken.mockResolvedValueOnce({ rtmToken: 'stale', rtcToken: 'x' });
    expect((await rejection(alice.port.login('alice', 't'))).code).toBe(RtmDoubleCode.invalidToken);
  });

  it('a token request or SDK load that fails rejects the login; the next login tries again', async () => {
    const cloud = new RtmCloud();
    const alice = device(cloud, 'alice');
    alice.fetchRtmToken.mockRejectedValueOnce(new Error('Network Connection Failure'));
    expect((await rejection(alice.port.login('alice', 't'))).message).toBe('RTM token unavailable: Network Connection Failure');
    expect(alice.sdk.clients).toHaveLength(0);

    const sdk = new RtmDoubleSdk(cloud);
    const loadSdk = vi.fn<() => Promise<RtmDoubleSdk>>().mockRejectedValueOnce(new Error('chunk')).mockResolvedValue(sdk);
    const port = createRtmSignallingPort({ appId: 'a', loadSdk, fetchRtmToken: async () => ({ rtmToken: cloud.tokenFor('bob'), rtcToken: '' }) });
    expect((await rejection(port.login('bob', 't'))).message).toMatch(/RTM SDK unavailable: chunk/);
    await port.login('bob', 't');
    expect(loadSdk).toHaveBeenCalledTimes(2);
  });
});

describe('Agora RTM signalling adapter: signals [§3 signalling action]', () => {
  const actions = Object.entries(SignalAction);

  it.each(actions)('%s (%i) goes from caller to callee as one user-channel message, every field kept', async (_name, action) => {
    const { alice, bob } = await loggedIn();
    const sent = await alice.port.send('bob', { action, channelId: 'ch-42', payload: { videoPrice: 60, nickname: 'Al' } });
    expect(sent).toEqual({
      id: 'alice-sig-1', action, channelId: 'ch-42', from: 'alice', to: 'bob', time: 1_800_000_000_000, payload: { videoPrice: 60, nickname: 'Al' },
    });
    const [published] = alice.sdk.last.published;
    expect(published!.channelName).toBe('bob');
    expect(published!.options).toEqual({ channelType: 'USER' });
    expect(JSON.parse(published!.message as string)).toEqual(sent);
    expect(bob.events).toEqual([{ type: 'signal', signal: sent }]);
  });

  it.each(actions)('%s (%i) also goes the other way, without a payload', async (_name, action) => {
    const { alice, bob } = await loggedIn();
    const sent = await bob.port.send('alice', { action, channelId: 'ch-7' });
    expect(sent).toEqual({ id: 'bob-sig-1', action, channelId: 'ch-7', from: 'bob', to: 'alice', time: 1_800_000_000_000 });
    expect(signals(alice.events)).toEqual([sent]);
  });

  it('a peer that is not online cannot be reached (-11033)', async () => {
    const { alice } = await loggedIn();
    const error = await rejection(alice.port.send('carol', { action: SignalAction.audioCall, channelId: 'c' }));
    expect(error.code).toBe(RtmDoubleCode.receiverOffline);
    // The port's failure of a peer who cannot be reached (SPEC §8 'the user is currently unavaliable').
    expect(error).toMatchObject({ kind: 'unavailable', message: TEXT_PEER_UNAVAILABLE });
  });

  it('ignores what is not a signal, trusts RTM for the sender, and drops a redelivered signal', async () => {
    const { cloud, bob } = await loggedIn();
    cloud.deliverRaw('bob', 'alice', 'not json');
    cloud.deliverRaw('bob', 'alice', JSON.stringify({ id: 'x', action: 7, channelId: 'c' }));
    cloud.deliverRaw('bob', 'alice', JSON.stringify({ id: 'y', action: 0 }));
    expect(bob.events).toEqual([]);
    const spoofed = JSON.stringify({ id: 'z', action: SignalAction.hangup, channelId: 'c', from: 'mallory', to: 'someone', time: 5 });
    cloud.deliverRaw('bob', 'alice', spoofed);
    cloud.deliverRaw('bob', 'alice', spoofed);
    expect(signals(bob.events)).toEqual([{ id: 'z', action: SignalAction.hangup, channelId: 'c', from: 'alice', to: 'bob', time: 5 }]);
  });

  it('a signal without id or time gets stable ones from RTM', () => {
    expect(parseSignal(JSON.stringify({ action: 2, channelId: 'c', payload: [1] }), 'alice', 'bob', 99)).toEqual({
      id: 'alice:c:2:99', action: 2, channelId: 'c', from: 'alice', to: 'bob', time: 99,
    });
  });
});

describe('Agora RTM signalling adapter: link state', () => {
  it('a dropped link gives `disconnected` once, the SDK reconnecting gives `connected`', async () => {
    const { cloud, alice } = await loggedIn();
    cloud.dropLink('alice');
    cloud.dropLink('alice');
    expect(alice.events).toEqual([{ type: 'disconnected' }]);
    cloud.restoreLink('alice');
    expect(alice.events).toEqual([{ type: 'disconnected' }, { type: 'connected' }]);
  });

  it('the same user logging in elsewhere disconnects this one', async () => {
    const { cloud, alice } = await loggedIn();
    const elsewhere = device(cloud, 'alice');
    await elsewhere.port.login('alice', 't');
    expect(alice.events).toEqual([{ type: 'disconnected' }]);
  });

  it('logout is not a lost link: no event, no listener left, and later sends reject', async () => {
    const { cloud, alice, bob } = await loggedIn();
    const client = alice.sdk.last;
    await alice.port.logout();
    expect(alice.events).toEqual([]);
    expect(client.listenerCount).toBe(0);
    expect(cloud.isOnline('alice')).toBe(false);
    await expect(alice.port.send('bob', { action: SignalAction.cancel, channelId: 'c' })).rejects.toBeInstanceOf(SignallingError);
    expect((await rejection(bob.port.send('alice', { action: SignalAction.cancel, channelId: 'c' }))).code).toBe(RtmDoubleCode.receiverOffline);
  });

  it('an unsubscribed listener hears nothing more', async () => {
    const { alice, bob } = await loggedIn();
    const heard: SignalEvent[] = [];
    const off = bob.port.subscribe((e) => heard.push(e));
    await alice.port.send('bob', { action: SignalAction.videoCall, channelId: 'c' });
    off();
    await alice.port.send('bob', { action: SignalAction.cancel, channelId: 'c' });
    expect(heard).toHaveLength(1);
  });
});
