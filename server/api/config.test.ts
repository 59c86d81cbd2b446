import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { SEED_PASSWORD } from '../db/seed';
import { device, startTestServer, type TestServer } from '../testing/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('[§7] /api/index/getConfigByKey', () => {
  it('answers the known keys of a comma list and leaves the unknown ones out', async () => {
    const signedIn = await server.call(endpoints.login, { ...device, account: 'host1@example.com', password: SEED_PASSWORD });
    const res = await server.call(
      endpoints.getConfigByKey,
      { searchValue: 'max_no_use_app_reminder_time, achor_hide_button,no_such_key' },
      { token: signedIn.data!.token },
    );
    expect(res.code).toBe(ResultCode.success);
    expect(Object.keys(res.data!).sort()).toEqual(['achor_hide_button', 'max_no_use_app_reminder_time']);
    expect(Number(res.data!.max_no_use_app_reminder_time)).toBeGreaterThan(0);
  });

  it('needs a session', async () => {
    const res = await server.call(endpoints.getConfigByKey, { searchValue: 'achor_hide_button' });
    expect(res.code).toBe(ResultCode.authFailed);
  });
});
