import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode, TEXT_UPDATE_REQUIRED } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { SEED_PASSWORD } from '../db/seed';
import { device, startTestServer, type TestServer } from '../testing/harness';
import { TEXT_ACCOUNT_EXISTS, TEXT_BAD_CREDENTIALS } from './session';
import { compareVersions, TEXT_SESSION_EXPIRED } from './transport';

const { login, register, visit, userInfo, logout } = endpoints;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const signIn = async (account: string, password = SEED_PASSWORD) => {
  const res = await server.call(login, { ...device, account, password });
  expect(res.code).toBe(ResultCode.success);
  return res.data!;
};

describe('[§7] /api/login/v4/login', () => {
  it('signs a seeded host in with the dev password', async () => {
    const res = await server.call(login, { ...device, account: 'host1@example.com', password: SEED_PASSWORD });
    expect(res).toMatchObject({ code: '0000', message: 'success', data: { userId: 100001, userType: 2 } });
    expect(res.data!.token).toMatch(/^[0-9a-f]{64}$/);
    expect(res.data!.loginUuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('matches the account case-insensitively and gives each sign-in its own session', async () => {
    const a = await signIn('user1@example.com');
    const b = await signIn('USER1@Example.com');
    expect(b).toMatchObject({ userId: a.userId, userType: 1 });
    expect(b.token).not.toBe(a.token);
  });

  it('[§8 1005] answers a wrong password and an unknown account alike', async () => {
    const wrong = await server.call(login, { ...device, account: 'host1@example.com', password: 'not-the-password' });
    const unknown = await server.call(login, { ...device, account: 'nobody@example.com', password: SEED_PASSWORD });
    expect(wrong).toEqual({ code: ResultCode.authFailed, message: TEXT_BAD_CREDENTIALS });
    expect(unknown).toEqual(wrong);
  });

  it('records the app id header and the device fields on the session', async () => {
    const res = await server.call(login, { ...device, account: 'host2@example.com', password: SEED_PASSWORD }, { appId: 'app-42' });
    const row = server.readDb().prepare('SELECT * FROM sessions WHERE token = ?').get(res.data!.token);
    expect(row).toMatchObject({
      login_uuid: res.data!.loginUuid,
      user_id: 100002,
      app_id: 'app-42',
      device_type: device.deviceType,
      device_id: device.deviceId,
      device_no: device.deviceNo,
      os_type: device.osType,
      os_version: device.osVersion,
      app_version: device.appVersion,
      revoked_at: null,
    });
  });
});

describe('[§7] /api/login/register', () => {
  it('creates a normal user with the nickname and signs them in', async () => {
    const res = await server.call(register, { ...device, account: 'new1@example.com', password: 'secret1', nickname: 'Jane Doe' });
    expect(res).toMatchObject({ code: '0000', data: { userType: 1 } });
    const mine = await server.call(userInfo, {}, { token: res.data!.token });
    expect(mine.data).toMatchObject({ userId: res.data!.userId, nickname: 'Jane Doe', userType: 1, userLevel: 0, picList: [], icon: '/avatars/jane-doe.svg' });
    expect((await signIn('new1@example.com', 'secret1')).userId).toBe(res.data!.userId);
  });

  it('[1010] refuses an account that exists, whatever its case', async () => {
    for (const account of ['host1@example.com', 'HOST1@example.com']) {
      const res = await server.call(register, { ...device, account, password: 'secret1', nickname: 'Copy' });
      expect(res).toEqual({ code: ResultCode.accountExists, message: TEXT_ACCOUNT_EXISTS });
    }
  });

  it('lets exactly one of 20 parallel sign-ups of one account succeed', async () => {
    const body = { ...device, account: 'race@example.com', password: 'secret1', nickname: 'Racer' };
    const results = await Promise.all(Array.from({ length: 20 }, () => server.call(register, body)));
    expect(results.filter((r) => r.code === ResultCode.success)).toHaveLength(1);
    expect(results.filter((r) => r.code === ResultCode.accountExists)).toHaveLength(19);
    const count = server.readDb().prepare("SELECT count(*) AS n FROM users WHERE account = 'race@example.com'").get();
    expect(count).toEqual({ n: 1 });
  });

  it('answers 1000 to a request outside the contract (password too short)', async () => {
    const res = await server.call(register, { ...device, account: 'short@example.com', password: '123', nickname: 'Short' });
    expect(res).toEqual({ code: ResultCode.invalidRequest, message: 'Invalid request.' });
  });
});

describe('[§6 Visitor] /api/login/visit', () => {
  it('reuses the visitor of a device and names it from the device id', async () => {
    const first = await server.call(visit, { ...device, deviceId: 'phone-A' });
    const again = await server.call(visit, { ...device, deviceId: 'phone-A' });
    const other = await server.call(visit, { ...device, deviceId: 'phone-B' });
    expect(first.data).toMatchObject({ userType: 1 });
    expect(again.data!.userId).toBe(first.data!.userId);
    expect(again.data!.token).not.toBe(first.data!.token);
    expect(other.data!.userId).not.toBe(first.data!.userId);

    const mine = await server.call(userInfo, {}, { token: first.data!.token });
    expect(mine.data!.nickname).toMatch(/^Visitor \d{4}$/);
    const mineAgain = await server.call(userInfo, {}, { token: again.data!.token });
    expect(mineAgain.data!.nickname).toBe(mine.data!.nickname);
  });
});

describe('[§3 Current user] /api/anchor/userInfo', () => {
  it('returns the host of the token with pictures and one video', async () => {
    const { token } = await signIn('host1@example.com');
    const res = await server.call(userInfo, {}, { token });
    expect(res.code).toBe('0000');
    expect(res.data).toMatchObject({
      userId: 100001,
      userType: 2,
      nickname: 'Sofia',
      icon: '/avatars/host1.svg',
      userLevel: 1,
      countryId: 1,
      vipInfo: { isVip: false },
      isNewUser: false,
    });
    expect(res.data!.yxAccid).toMatch(/^yx[0-9a-f]+$/);
    expect(res.data!.imToken).not.toBe('');
    const types = res.data!.picList.map((m) => m.mediaType);
    expect(types.filter((t) => t === 1).length).toBeGreaterThanOrEqual(2);
    expect(types.filter((t) => t === 2)).toHaveLength(1);
  });

  it('takes the user from the token, never from the body', async () => {
    const { token } = await signIn('host1@example.com');
    const body = JSON.parse('{"userId":200001}') as Record<string, never>;
    const res = await server.call(userInfo, body, { token });
    expect(res.data!.userId).toBe(100001);
  });

  it('[§8 1005] refuses no token, an unknown token and a token after logout', async () => {
    const expired = { code: ResultCode.authFailed, message: TEXT_SESSION_EXPIRED };
    expect(await server.call(userInfo, {})).toEqual(expired);
    expect(await server.call(userInfo, {}, { token: 'f'.repeat(64) })).toEqual(expired);

    const { token } = await signIn('user2@example.com');
    expect((await server.call(userInfo, {}, { token })).code).toBe('0000');
    expect(await server.call(logout, {}, { token })).toEqual({ code: '0000', message: 'success', data: null });
    expect(await server.call(userInfo, {}, { token })).toEqual(expired);
    expect(await server.call(logout, {}, { token })).toEqual(expired);
  });

  it('logout ends only the session of its token', async () => {
    const a = await signIn('user3@example.com');
    const b = await signIn('user3@example.com');
    await server.call(logout, {}, { token: a.token });
    expect((await server.call(userInfo, {}, { token: b.token })).code).toBe('0000');
  });
});

describe('[§8 1004] minimum app version', () => {
  const body = { ...device, account: 'host1@example.com', password: SEED_PASSWORD };

  it('asks an app older than MIN_APP_VERSION, or one that does not say, to update', async () => {
    for (const appVersion of ['0.9.9', '0.99', '', null]) {
      expect(await server.call(login, body, { appVersion })).toEqual({
        code: ResultCode.updateRequired,
        message: TEXT_UPDATE_REQUIRED,
      });
    }
  });

  it('serves the minimum version and newer', async () => {
    for (const appVersion of ['1.0.0', '1.0.34', '2']) {
      expect((await server.call(login, body, { appVersion })).code).toBe('0000');
    }
  });

  it('compares versions numerically, component by component', () => {
    expect(compareVersions('1.0.10', '1.0.9')).toBe(1);
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
    expect(compareVersions('0.9.9', '1.0.0')).toBe(-1);
    expect(compareVersions('1.0.34-beta', '1.0.34')).toBe(0);
  });
});
