/**
 * The harness pages of tests/e2e/rtc/ (index.html: calls, tests/e2e/rtc.spec.ts; live.html:
 * live rooms' media, tests/e2e/live-media.spec.ts) as the specs use them: built with Vite
 * before a spec's tests into a folder of the e2e server's dist, so they are served from the
 * app's origin (see tests/e2e/rtc/vite.config.ts), and opened for one seeded person each; and
 * the calls and live rooms the pages join, made through the API as the app makes them (the
 * hub's relay admits only a call's parties and a live room's own host).
 */
import { test } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { createAesCodec } from '../../src/api/codec';
import { APP_VERSION, DEV_AES_IV, DEV_AES_KEY, Header } from '../../src/api/codes';
import { RealtimePath } from '../../src/api/contract/realtime';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { HarnessSession } from './rtc/page';
import { type Account, firstAccount, openParams } from './support';

/**
 * Builds the harness pages for this spec file before its tests and removes them after;
 * returns the folder's URL path (known from `beforeAll` on). One folder per worker (and per
 * `name`), so that parallel workers never write over each other.
 */
export function buildHarnessPages(name: string): () => string {
  let harnessBase = '';
  test.beforeAll(() => {
    // Built into the build the e2e server serves (E2E_DIST_DIR, else dist), served as files.
    harnessBase = `/__${name}-${process.env.TEST_WORKER_INDEX ?? '0'}/`;
    const build = spawnSync('npx', ['vite', 'build', '--config', 'tests/e2e/rtc/vite.config.ts'], {
      encoding: 'utf8',
      env: {
        ...process.env,
        RTC_HARNESS_OUT: join(process.cwd(), process.env.E2E_DIST_DIR ?? 'dist', harnessBase),
        RTC_HARNESS_BASE: harnessBase,
        VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
      },
    });
    if (build.status !== 0) throw new Error(`harness build failed: ${build.stderr || build.stdout}`);
  });
  test.afterAll(() => {
    rmSync(join(process.cwd(), process.env.E2E_DIST_DIR ?? 'dist', harnessBase), { recursive: true, force: true });
  });
  return () => harnessBase;
}

export interface Person {
  account: Account;
  /** The session the page was started with (its login token). */
  session: string;
  context: BrowserContext;
  page: Page;
  /** Requests that left this machine's server, CSP refusals and page errors (there must be none). */
  problems: string[];
}

/**
 * The first seeded account of `userType` in a browser context of its own, with the harness
 * page at `url` open and started (`start`, run in the page) with the account's session.
 */
export async function openHarness(
  browser: Browser, request: APIRequestContext, userType: 1 | 2, url: string, start: (session: HarnessSession) => void,
  /** Browser permissions the page has from the start (e.g. camera and microphone allowed already). */
  permissions?: string[],
  /** Which accounts of the type will do (a caller who can pay for a call). */
  which?: (a: Account) => boolean,
): Promise<Person> {
  const account = await firstAccount(request, userType, which);
  const context = await browser.newContext({ permissions });
  const page = await context.newPage();
  const problems: string[] = [];
  const origin = new URL(test.info().project.use.baseURL ?? 'http://localhost').origin;
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) problems.push(`outside: ${r.url()}`);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(url);
  const params = await openParams(request, account.userId);
  await page.evaluate(start, { token: params.token ?? '', appId: params.appId ?? '', appVersion: params.appVersion });
  return { account, session: params.token ?? '', context, page, problems };
}

const codec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);

/** An endpoint of the encrypted API as the app calls it, with `person`'s session. */
async function api<T>(request: APIRequestContext, person: Person, path: string, body: object): Promise<{ code: string; message: string; data?: T }> {
  const response = await request.post(path, {
    headers: {
      'content-type': 'text/plain;charset=utf-8', [Header.loginToken]: person.session, [Header.anchorToken]: person.session,
      [Header.appId]: 'web', [Header.appVersion]: APP_VERSION,
    },
    data: codec.encrypt(JSON.stringify(body)),
  });
  return JSON.parse(codec.decrypt(await response.text())) as { code: string; message: string; data?: T };
}

/**
 * A call from `caller` to `callee` made as the app makes one (createCall), ringing: the hub's
 * relay admits its two parties only, while it rings (up to the ring time-out) or is in
 * progress. The callee is reachable for it while her signalling is logged in, here for the
 * moment of the request.
 */
export async function ringingCall(request: APIRequestContext, caller: Person, callee: Person): Promise<string> {
  const tokens = await api<{ rtmToken: string }>(request, callee, '/api/index/getAgoraRtmToken', {});
  const origin = new URL(test.info().project.use.baseURL ?? 'http://localhost').origin;
  const signal = new WebSocket(origin.replace(/^http/, 'ws') + RealtimePath.signal);
  await new Promise((resolve, reject) => { signal.once('open', resolve); signal.once('error', reject); });
  const loggedIn = new Promise((resolve) => signal.once('message', resolve));
  signal.send(JSON.stringify({ id: 1, op: 'login', account: callee.account.yxAccid, token: tokens.data!.rtmToken }));
  await loggedIn;
  try {
    const created = await api<{ channelId: string }>(request, caller, '/api/call/record/v2/createCall', {
      beCallUserId: callee.account.userId, callType: 0, idempotencyKey: randomUUID(),
    });
    if (!created.data) throw new Error(`createCall refused: ${created.code} ${created.message}`);
    return created.data.channelId;
  } finally {
    signal.close();
  }
}

/**
 * The host's live room begun as the app begins it (beginLiveRoom), kept live by a beat every
 * few seconds (the relay admits its host and audience only while it is live) until `end`.
 */
export async function liveRoom(request: APIRequestContext, host: Person): Promise<{ channelId: string; end(): Promise<void> }> {
  const begun = await api<{ agoraChannelId: string; yxRoomId: string }>(request, host, '/api/agora/live/beginLiveRoom', { title: 'Harness', privateCallOpen: false });
  if (!begun.data) throw new Error(`beginLiveRoom refused: ${begun.code} ${begun.message}`);
  const { yxRoomId } = begun.data;
  const beat = setInterval(() => { api(request, host, '/api/agora/liveHeartBeatV2', { yxRoomId }).catch(() => undefined); }, 3000);
  return {
    channelId: begun.data.agoraChannelId,
    async end() {
      clearInterval(beat);
      await api(request, host, '/api/agora/live/endLiveRoom', {});
    },
  };
}
