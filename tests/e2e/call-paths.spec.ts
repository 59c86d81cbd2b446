/**
 * The call machine's outcomes driven through the UI (SPEC §4 Call status, §8 call messages,
 * §9 call constants): for every outcome of every input (call-outcomes.ts, generated from the
 * machine), its shortest path is replayed in two browser contexts, the user's and the
 * host's, with fake camera and microphone. Each machine event of the path maps to what a
 * person or the world does (DRIVERS below): a tap, the peer's tap, a refused camera, a network
 * reset, a clock that runs out. An outcome whose path takes an event without a driver fails,
 * so the mapping cannot fall behind the machine; the few events that cannot be made to happen
 * honestly against the reference server are listed with the reason (NOT_DRIVABLE).
 *
 * Each worker runs its own reference server (2 s billing periods) with its own seed, so every
 * test has a host and users nobody else touches.
 */
import { chromium, expect, request as playwrightRequest, test as base } from '@playwright/test';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import type { AnyMachineSnapshot } from 'xstate';
import { CONNECT_TIMEOUT_MS, DEFAULT_RING_TIMEOUT_MS, callMachine, channelToTell } from '../../machines/call/call.machine';
import type { CallContext } from '../../machines/call/call.machine';
import { createAesCodec } from '../../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY } from '../../src/api/codes';
import { baseURL, chromiumArgs } from '../../playwright.config';
import { findChromium } from '../../scripts/chromium.mjs';
import { eventKey, eventTypesTaken, outcomePaths, samples } from './call-outcomes';
import type { InputName, OutcomePath, PathStep } from './call-outcomes';
import { serverProcess } from './server-process';
import type { ServerProcess } from './server-process';
import { VIDEO_LOCK, accounts, decoded, openAppAs } from './support';
import type { Account } from './support';
import { CallStatus, HangupReason } from '../../machines/codes/call.codes';

/** How the world is set up before the call starts; drivers ask for what their event needs. */
interface Setup {
  /** The user's seeded level: 0 has 1000 diamonds, 3 has none (SPEC §8 1080). */
  userLevel: 0 | 3;
  hostAppOpen: boolean;
  /** Another user's call is ringing at the host first. */
  busyHost: boolean;
  /** The side whose machine is driven refuses camera and microphone. */
  cameraDenied: boolean;
  /** Its peer does. */
  peerCameraDenied: boolean;
  /** The driven side's page runs on Playwright's clock, so a time-out can be run out. */
  clock: boolean;
  /** The driven side's media negotiation never gets through (its relay frames are lost). */
  holdMedia: boolean;
}

interface Side {
  name: 'user' | 'host';
  account: Account;
  context: BrowserContext;
  page: Page;
  /** The decrypted endCall bodies the page sent. */
  endCalls: { channelId: string; hangupReason: number }[];
}

interface World {
  api: APIRequestContext;
  user: Side;
  host: Side;
  /** The side whose machine the path is of, and the other. */
  self: Side;
  peer: Side;
  others: Side[];
}

interface Driver {
  /** `eventKey` of the event. */
  key: string;
  /** Only in these states (default: wherever the event comes). */
  when?: (before: AnyMachineSnapshot) => boolean;
  /** What makes the event happen, for the test's annotations. */
  how: string;
  arrange?: Partial<Setup>;
  /**
   * What is done once the UI shows the state the event comes in (none when the world answers
   * by itself): a tap on the call screen by the driven side or its peer, or something else.
   */
  tap?: { by: 'self' | 'peer'; button: string };
  act?: (w: World, step: PathStep) => Promise<void>;
}

const callScreen = (page: Page) => page.getByRole('dialog', { name: 'Call' });
const endScreen = (page: Page) => page.getByRole('dialog', { name: 'Call ended' });
const inConnecting = (s: AnyMachineSnapshot) => s.matches('connecting');
const inConnected = (s: AnyMachineSnapshot) => s.matches('connected');
const answered = 'the server, the media or signalling answers by itself';

/** Cuts every realtime socket of a side (RTC relay, signalling, IM, presence) as a network reset does. */
async function dropLinks(w: World, side: Side) {
  const res = await w.api.post('/shell/api/drop', { data: { userId: side.account.userId } });
  expect(((await res.json()) as { dropped: number }).dropped).toBeGreaterThan(0);
}

const DRIVERS: Driver[] = [
  ...['setup', 'accept', 'end', 'peerCard']
    .map((id): Driver => ({ key: `done.${id}`, how: answered })),
  { key: 'error.setup(busy)', how: "another user's call rings at the host first: createCall answers 1992", arrange: { busyHost: true } },
  { key: 'error.setup(offline)', how: "the host's app is not open: createCall answers 2001", arrange: { hostAppOpen: false } },
  { key: 'error.setup(balance)', how: 'a user with no diamonds: createCall answers 1080', arrange: { userLevel: 3 } },
  { key: 'done.setup(permissionDenied)', how: "the user's browser refuses camera and microphone", arrange: { cameraDenied: true } },
  { key: 'error.accept(permissionDenied)', how: "the host's browser refuses camera and microphone", arrange: { cameraDenied: true } },
  { key: 'signal.accept', how: 'the peer taps Accept', tap: { by: 'peer', button: 'Accept' } },
  { key: 'signal.reject', how: 'the peer taps Reject', tap: { by: 'peer', button: 'Reject' } },
  {
    key: 'signal.reject(unavailable)', how: "the host taps Accept, and the host's browser refuses camera and microphone",
    arrange: { peerCameraDenied: true }, tap: { by: 'peer', button: 'Accept' },
  },
  { key: 'signal.cancel', when: (s) => s.matches({ incoming: 'ringing' }), how: 'the peer taps Cancel', tap: { by: 'peer', button: 'Cancel' } },
  {
    key: 'signal.hangup', when: inConnecting, how: 'the peer taps Hang up while connecting', arrange: { holdMedia: true },
    tap: { by: 'peer', button: 'Hang up' },
  },
  { key: 'signal.hangup', when: inConnected, how: 'the peer taps End call', tap: { by: 'peer', button: 'End call' } },
  {
    key: 'rtc.firstRemoteFrame', how: 'the media connects: both decode frames, chat both ways, a gift, a billing period',
    act: (w) => connectedChecks(w),
  },
  { key: 'rtc.connectionLost', when: inConnecting, how: "the driven side's network is reset while connecting", arrange: { holdMedia: true }, act: (w) => dropLinks(w, w.self) },
  { key: 'rtc.connectionLost', when: inConnected, how: "the driven side's network is reset (its RTC relay link drops)", act: (w) => dropLinks(w, w.self) },
  { key: 'call.cancel', how: 'the caller taps Cancel', tap: { by: 'self', button: 'Cancel' } },
  { key: 'call.accept', how: 'the host taps Accept', tap: { by: 'self', button: 'Accept' } },
  { key: 'call.reject', how: 'the host taps Reject', tap: { by: 'self', button: 'Reject' } },
  {
    key: 'call.hangup', when: inConnecting, how: 'the driven side taps Hang up while connecting', arrange: { holdMedia: true },
    tap: { by: 'self', button: 'Hang up' },
  },
  { key: 'call.hangup', when: inConnected, how: 'the driven side taps End call', tap: { by: 'self', button: 'End call' } },
  {
    key: 'after.ringTimeout', how: `nobody answers: the ringing side's clock runs ${DEFAULT_RING_TIMEOUT_MS / 1000} s on`, arrange: { clock: true },
    act: (w, step) => w.self.page.clock.fastForward((step.before.context as CallContext).ringTimeoutMs),
  },
  {
    key: 'after.connectTimeout', how: `no remote frame: the media never comes up and the clock runs ${CONNECT_TIMEOUT_MS / 1000} s on`,
    arrange: { clock: true, holdMedia: true }, act: (w) => w.self.page.clock.fastForward(CONNECT_TIMEOUT_MS),
  },
];

/** Events that cannot be made to happen honestly through the UI against the reference server, and why. */
const NOT_DRIVABLE: Record<string, string> = {
  'signal.reject(busy)':
    "the app answers a second ring during a call with a busy reject, but the reference server refuses a call to a host who has an open call (1992) before it rings, so the host's app never gets that second ring",
  'done.setup(error)':
    "the relay would have to refuse the caller's join twice (room preparation is retried once); the reference server refuses only a third member of a call's channel or a token it did not issue, and the app sends neither",
  'error.accept(error)':
    'joinCall would have to time out (3 s) or fail for another reason; the reference server answers it at once and has no fault to inject for it',
  'rtc.mediaFailed':
    "the own camera would have to fail after it was allowed (the call goes on without waiting for it); Chromium's fake camera and microphone open whenever they are allowed",
};

function driverOf(step: PathStep): Driver | undefined {
  const key = eventKey(step.event);
  return DRIVERS.find((d) => d.key === key && (d.when?.(step.before) ?? true));
}

/** What the end screen says when the outcome has no §8 text (CallOverlay's wording). */
const STATUS_TEXT: Partial<Record<number, string>> = {
  [CallStatus.timeout]: 'No answer',
  [CallStatus.cancel]: 'Call cancelled',
  [CallStatus.hungUp]: 'Call ended',
};

const codec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);

// ---------------------------------------------------------------------------------------------
// One reference server per worker, and its accounts handed out once each.

interface CallServer {
  server: ServerProcess;
  api: APIRequestContext;
  take(kind: 'host' | 'user', level?: number): Account;
}

const test = base.extend<object, { callServer: CallServer }>({
  // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  callServer: [async ({}, use, workerInfo) => {
    const port = Number(new URL(baseURL).port) + 20 + workerInfo.parallelIndex;
    const server = serverProcess(port, `call-paths-${workerInfo.parallelIndex}`, {
      SEED_HOSTS: '40', SEED_USERS: '80', CALL_BILLING_PERIOD_MS: '2000',
    });
    await server.start();
    const api = await playwrightRequest.newContext({ baseURL: server.baseURL });
    const all = await accounts(api);
    const used = new Set<number>();
    const take = (kind: 'host' | 'user', level?: number) => {
      const found = all.find((a) => !used.has(a.userId) && a.userType === (kind === 'host' ? 2 : 1)
        && (level === undefined ? a.userLevel > 0 : a.userLevel === level));
      if (!found) throw new Error(`no ${kind} account left (level ${level ?? 'any'})`);
      used.add(found.userId);
      return found;
    };
    await use({ server, api, take });
    await api.dispose();
    await server.kill();
  }, { scope: 'worker' }],
});

// ---------------------------------------------------------------------------------------------

async function sideOf(
  name: Side['name'], account: Account, browser: Browser, server: ServerProcess, opts: { clock: boolean; holdMedia: boolean },
): Promise<Side> {
  const context = await browser.newContext({ baseURL: server.baseURL, viewport: { width: 360, height: 640 } });
  const page = await context.newPage();
  const side: Side = { name, account, context, page, endCalls: [] };
  await page.route('**/api/call/record/v2/endCall', async (route) => {
    side.endCalls.push(JSON.parse(codec.decrypt(route.request().postData() ?? '')) as Side['endCalls'][number]);
    await route.continue();
  });
  if (opts.clock) await page.clock.install();
  if (opts.holdMedia) {
    // The relay's offer/answer/candidates of this side are lost both ways (relayed, posted ahead,
    // or waiting in a join's answer): its media never comes up.
    await page.routeWebSocket(/\/realtime\/rtc$/, (ws) => {
      const server = ws.connectToServer();
      const isRelay = (m: string | Buffer) => {
        const frame = JSON.parse(String(m)) as { op?: string; push?: { type?: string } };
        return frame.op === 'relay' || frame.op === 'post' || frame.push?.type === 'relay';
      };
      const withoutWaiting = (m: string | Buffer) => {
        const frame = JSON.parse(String(m)) as { result?: { waiting?: unknown[] } };
        return frame.result?.waiting?.length ? JSON.stringify({ ...frame, result: { ...frame.result, waiting: [] } }) : m;
      };
      ws.onMessage((m) => { if (!isRelay(m)) server.send(m); });
      server.onMessage((m) => { if (!isRelay(m)) ws.send(withoutWaiting(m)); });
    });
  }
  return side;
}

async function openTalk(user: Side, host: Account, api: APIRequestContext) {
  await openAppAs(user.page, api, user.account.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  // The app's first start, while the other person's app starts too: on a loaded 2-core machine the
  // peer's profile (which brings the call button) has answered after 7 s once in ~100 runs.
  await expect(user.page.getByRole('button', { name: `Video call ${host.nickname}` })).toBeVisible({ timeout: 15_000 });
}
const placeCall = (user: Side, host: Account) => user.page.getByRole('button', { name: `Video call ${host.nickname}` }).click();

async function openWorld(path: OutcomePath, setup: Setup, browser: Browser, cs: CallServer, closers: (() => Promise<unknown>)[]): Promise<World> {
  const selfName = selfOf(path.input);
  let denying: Browser | null = null;
  const browserOf = async (name: Side['name']) => {
    if (!(setup.cameraDenied && name === selfName) && !(setup.peerCameraDenied && name !== selfName)) return browser;
    // A person who refuses camera and microphone: the permission prompt answers no.
    denying = await chromium.launch({
      executablePath: findChromium() ?? undefined,
      args: chromiumArgs.map((a) => (a === '--use-fake-ui-for-media-stream' ? '--use-fake-ui-for-media-stream=deny' : a)),
    });
    closers.push(() => denying!.close());
    return denying;
  };
  const opts = (name: Side['name']) => ({ clock: setup.clock && name === selfName, holdMedia: setup.holdMedia && name === selfName });
  const host = await sideOf('host', cs.take('host'), await browserOf('host'), cs.server, opts('host'));
  const user = await sideOf('user', cs.take('user', setup.userLevel), await browserOf('user'), cs.server, opts('user'));
  closers.push(() => host.context.close(), () => user.context.close());
  const w: World = { api: cs.api, user, host, self: selfName === 'host' ? host : user, peer: selfName === 'host' ? user : host, others: [] };

  // The user's chat loads while the host's app starts; the call waits for both.
  await Promise.all([
    setup.hostAppOpen && (async () => {
      await openAppAs(host.page, cs.api, host.account.userId);
      await expect(host.page.getByRole('heading', { name: 'Home' })).toBeVisible();
    })(),
    openTalk(user, host.account, cs.api),
  ]);
  if (setup.busyHost) {
    const other = await sideOf('user', cs.take('user', 0), browser, cs.server, { clock: false, holdMedia: false });
    closers.push(() => other.context.close());
    w.others.push(other);
    await openTalk(other, host.account, cs.api);
    await placeCall(other, host.account);
    await expect(callScreen(host.page)).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  }
  return w;
}

/** How each input's call starts. */
const START: Record<InputName, (w: World) => Promise<void>> = {
  'the user calls': (w) => placeCall(w.user, w.host.account),
  // SPEC §5: no call starts offline.
  'the user calls offline': async (w) => {
    // The call screens and the session's call code are fetched once the app has settled and is idle
    // (WARM_AFTER_MS), so they can say why no call starts.
    await expect.poll(() => w.user.page.evaluate(() => ['CallOverlay', 'per-use'].every((chunk) =>
      performance.getEntriesByType('resource').some((e) => e.name.includes(chunk)))), { timeout: 20_000 }).toBe(true);
    await w.user.context.setOffline(true);
    await placeCall(w.user, w.host.account);
  },
  'the host is called': async (w) => {
    await placeCall(w.user, w.host.account);
    await expect(callScreen(w.host.page)).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  },
};

/** Waits until the UI shows the machine state `s` of the driven side (states the world has to act in). */
async function reach(w: World, s: AnyMachineSnapshot) {
  if (s.matches({ outgoing: 'ringing' })) {
    // Ringing here is only sure once it rings there (creating and preparing show 'dialling' too).
    await expect(callScreen(w.self.page)).toHaveAttribute('data-phase', 'dialling');
    await expect(callScreen(w.peer.page)).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  } else if (s.matches({ incoming: 'ringing' })) {
    await expect(callScreen(w.self.page)).toHaveAttribute('data-phase', 'ringing');
  } else if (s.matches('connecting')) {
    // The callee shows 'connecting' while still accepting too (joinCall, camera, join): only once the
    // caller is connecting has the accept signal gone out and the callee left accepting. (Where the
    // media is not held back, either may be connected already.)
    await expect(callScreen(w.self.page)).toHaveAttribute('data-phase', /^connect(ing|ed)$/, { timeout: 10_000 });
    await expect(callScreen(w.peer.page)).toHaveAttribute('data-phase', /^connect(ing|ed)$/, { timeout: 10_000 });
  } else if (s.matches('connected')) {
    await expect(callScreen(w.self.page)).toHaveAttribute('data-phase', 'connected', { timeout: 15_000 });
  }
}

const amountOf = async (page: Page, testId: string) => Number(/\d+/.exec((await callScreen(page).getByTestId(testId).textContent()) ?? '')?.[0] ?? NaN);

/**
 * What every connected call must show: both videos decoded, the server's billing and a gift
 * reaching the host's call and gift income, chat both ways.
 */
async function connectedChecks(w: World) {
  for (const side of [w.user, w.host]) {
    await expect(callScreen(side.page)).toHaveAttribute('data-phase', 'connected', { timeout: 15_000 });
    const remote = await decoded(callScreen(side.page).getByLabel('Their video'));
    expect(remote.frames, `${side.name} decodes the peer's video`).toBeGreaterThanOrEqual(3);
    expect(remote.width).toBeGreaterThan(0);
  }
  // The server charges a period when the host takes the call and one every billing period (2 s)
  // after: the host's call income shows the first, then grows by the next.
  await expect.poll(() => amountOf(w.host.page, 'call-income'), { timeout: 5_000 }).toBeGreaterThan(0);
  const before = await amountOf(w.host.page, 'call-income');
  // Meanwhile: chat both ways, and a gift from the user that reaches the host's gift income.
  const stamp = Date.now().toString(36);
  for (const [from, to] of [[w.user, w.host], [w.host, w.user]] as const) {
    await callScreen(from.page).getByPlaceholder('Say hi...').fill(`${from.name} says hi ${stamp}`);
    await callScreen(from.page).getByRole('button', { name: 'Send', exact: true }).click();
    await expect(callScreen(to.page).getByRole('list', { name: 'Chat' })).toContainText(`${from.name} says hi ${stamp}`);
  }
  await callScreen(w.user.page).getByRole('button', { name: 'Send a gift' }).click();
  const gifts = callScreen(w.user.page).getByRole('dialog', { name: 'Popular' });
  await gifts.getByRole('button', { name: 'Rose, 1 diamonds' }).click();
  await gifts.getByRole('button', { name: 'Sure' }).click();
  await expect(callScreen(w.host.page).getByTestId('gift-income')).toHaveText('Gift income 1', { timeout: 10_000 });
  await expect.poll(() => amountOf(w.host.page, 'call-income'), { timeout: 6_000 }).toBeGreaterThan(before);
}

async function rate(side: Side) {
  const ended = endScreen(side.page);
  await ended.getByRole('button', { name: '4 stars' }).click();
  const rated = side.page.waitForResponse((r) => r.url().endsWith('/api/chat/callRate'));
  await ended.getByRole('button', { name: 'Send rating' }).click();
  expect((await rated).ok()).toBe(true);
  await expect(ended.getByText('Thank you for rating.')).toBeVisible();
}

/**
 * A side's end matches `path`'s outcome: its end screen says it (§8 text, else the status),
 * the server was told its hangup reason (nothing when no call was created), and a connected
 * call is rated.
 */
async function expectOutcome(side: Side, path: OutcomePath) {
  const { outcome } = path;
  const ended = endScreen(side.page);
  await expect(ended.getByRole('status').first(), `${side.name}'s end screen`).toHaveText(outcome.text ?? STATUS_TEXT[outcome.status]!, { timeout: 15_000 });
  const final = path.steps.at(-1)!.after.context as CallContext;
  // (A refusing callee tells the server before the caller, then cleans up: the same reason twice.)
  expect([...new Set(side.endCalls.map((e) => e.hangupReason))], `${side.name}'s hangup reason`)
    .toEqual(channelToTell(final) === null ? [] : [outcome.reason ?? HangupReason.local]);
  if (outcome.connected) await rate(side);
  else await expect(ended.getByRole('button', { name: 'Send rating' })).toHaveCount(0);
}

/**
 * How a side's call ended, for the annotations (waiting up to `waitMs` for it to end by
 * itself); a call still open then is ended by the test, so the server keeps none open.
 */
async function settle(side: Side, waitMs: number): Promise<string> {
  const ended = endScreen(side.page);
  const open = callScreen(side.page);
  if (waitMs > 0) await expect(open).toBeHidden({ timeout: waitMs }).catch(() => undefined);
  if (await ended.isVisible()) return `ended: '${await ended.getByRole('status').first().textContent()}'`;
  if (!(await open.isVisible())) return 'no call';
  const phase = await open.getAttribute('data-phase');
  for (const name of ['Cancel', 'Reject', 'Hang up', 'End call']) {
    const button = open.getByRole('button', { name, exact: true });
    if (await button.isVisible()) {
      await button.click();
      break;
    }
  }
  return `still in the call (${phase}) ${waitMs / 1000} s after the end: ended by the test`;
}

// ---------------------------------------------------------------------------------------------

const paths = outcomePaths();
const byName = new Map(paths.map((p) => [p.name, p]));
const selfOf = (input: InputName): Side['name'] => (input === 'the host is called' ? 'host' : 'user');

/**
 * The user's paths whose run is, step for step, also the host's path to one of its outcomes:
 * one test drives both and checks both ends (`signature` must match, see the first test).
 */
const MIRRORS: Record<string, string> = {
  'the user calls → cancel (local)': 'the host is called → cancel (remote)',
  "the user calls → cancel (remote): 'The other party has refused.'": 'the host is called → cancel (local)',
  'the user calls → hungUp (local)': 'the host is called → hungUp (remote)',
  'the user calls → hungUp (remote)': 'the host is called → hungUp (local)',
  'the user calls → connected, then hungUp (local)': 'the host is called → connected, then hungUp (remote)',
  'the user calls → connected, then hungUp (remote)': 'the host is called → connected, then hungUp (local)',
  "the user calls → cancel (remote): 'She's not available right now;you can call another girl instead.'":
    "the host is called → cancel: 'Camera and microphone permission was denied.'",
};

/** What people and the world do along a path, by side, and the set-up it needs (media held back on either side holds both). */
function signature(path: OutcomePath): string[] {
  const self = selfOf(path.input);
  const other = self === 'host' ? 'user' : 'host';
  const setup = new Set<string>();
  const acts = path.steps.flatMap((step) => {
    const d = driverOf(step);
    for (const [flag, value] of Object.entries(d?.arrange ?? {})) {
      if (flag === 'holdMedia') setup.add(flag);
      else if (flag === 'peerCameraDenied') setup.add(`${other}.cameraDenied=${String(value)}`);
      else setup.add(`${self}.${flag}=${String(value)}`);
    }
    if (d?.tap) return [`${d.tap.by === 'self' ? self : other} taps ${d.tap.button}`];
    return d?.act ? [eventKey(step.event)] : [];
  });
  return [...acts, ...[...setup].sort()];
}

test('every event the call machine ends a call on has a sample, and every outcome a driver or a stated reason', () => {
  // Events that only change the call's context (income, gifts, chat) cannot end it.
  const targeted = new Set<string>();
  const walk = (node: typeof callMachine.root) => {
    for (const [type, transitions] of node.transitions) if (transitions.some((t) => t.target?.length)) targeted.add(type);
    Object.values(node.states).forEach(walk);
  };
  walk(callMachine.root);
  expect(eventTypesTaken().filter((t) => targeted.has(t) && !samples.some((s) => s.type === t))).toEqual([]);
  const missing = paths.flatMap((p) => p.steps.filter((s) => !driverOf(s) && !(eventKey(s.event) in NOT_DRIVABLE))
    .map((s) => `${p.name}: ${eventKey(s.event)} in ${JSON.stringify(s.before.value)}`));
  expect(missing).toEqual([]);
  // A reason for an event the paths no longer take is stale, and so is a mirror of an outcome that is gone.
  const taken = new Set(paths.flatMap((p) => p.steps.map((s) => eventKey(s.event))));
  expect(Object.keys(NOT_DRIVABLE).filter((k) => !taken.has(k))).toEqual([]);
  for (const [user, host] of Object.entries(MIRRORS)) {
    expect(byName.has(user) && byName.has(host), `${user} | ${host}`).toBe(true);
    expect(signature(byName.get(user)!), `${user} drives ${host}`).toEqual(signature(byName.get(host)!));
  }
});

const mirrored = new Set(Object.values(MIRRORS));
/** Whether a path takes a step the reference server cannot be made to produce (NOT_DRIVABLE says why; the check above keeps that list honest). */
const drivable = (path: OutcomePath) => path.steps.every((s) => !(eventKey(s.event) in NOT_DRIVABLE));

/** Whether video flows both ways in a path (its media connects): one such path at a time (VIDEO_LOCK). */
const connects = (path: OutcomePath) => path.steps.some((s) => eventKey(s.event) === 'rtc.firstRemoteFrame');

for (const path of paths.filter((p) => !mirrored.has(p.name) && drivable(p))) {
  const mirror = byName.get(MIRRORS[path.name] ?? '');
  test(mirror ? `${path.name} | ${mirror.name}` : path.name, connects(path) ? { lock: VIDEO_LOCK } : {}, async ({ browser, callServer }) => {
    test.setTimeout(60_000);
    const drivers = path.steps.map((step) => {
      const driver = driverOf(step);
      if (!driver) throw new Error(`No driver for ${eventKey(step.event)} in ${JSON.stringify(step.before.value)}: add one to DRIVERS`);
      return driver;
    });
    const setup: Setup = {
      userLevel: 0, hostAppOpen: true, busyHost: false, cameraDenied: false, peerCameraDenied: false, clock: false, holdMedia: false,
    };
    for (const d of drivers) Object.assign(setup, d.arrange);
    test.info().annotations.push({ type: 'path', description: path.steps.map((s, i) => `${eventKey(s.event)}: ${drivers[i]!.how}`).join(' → ') });

    const closers: (() => Promise<unknown>)[] = [];
    try {
      const w = await test.step('open the apps', () => openWorld(path, setup, browser, callServer, closers));
      await test.step(`start: ${path.input}`, () => START[path.input](w));
      for (const [i, step] of path.steps.entries()) {
        const { tap, act, how } = drivers[i]!;
        if (!tap && !act) continue;
        await test.step(`${eventKey(step.event)}: ${how}`, async () => {
          await reach(w, step.before);
          if (tap) await callScreen(w[tap.by].page).getByRole('button', { name: tap.button, exact: true }).click();
          else await act!(w, step);
        });
      }
      await test.step('the end screens', async () => {
        await expectOutcome(w.self, path);
        if (mirror) await expectOutcome(w.peer, mirror);
      });
      await test.step('the others', async () => {
        for (const other of w.others) test.info().annotations.push({ type: 'other caller', description: await settle(other, 0) });
        if (!mirror && setup.hostAppOpen) test.info().annotations.push({ type: `${w.peer.name} (peer)`, description: await settle(w.peer, 3_000) });
      });
    } finally {
      for (const close of closers.reverse()) await close().catch(() => undefined);
    }
  });
}
