/**
 * Watching a live room, driven from the liveViewing machine's own paths (SPEC §4 viewing
 * front status 1 loading, 2 live, 3 live end, 5 calling; a join refused; the video lost; leaving).
 * `createPathModel` (machines/testing/paths.ts, `xstate/graph`) gives the shortest path to each
 * view a viewer can end up in; each path is replayed through the UI with three browser
 * contexts (the host, the driven viewer, and another viewer whose private call takes the host
 * out of the room). Every event of a path maps to what the world does (DRIVERS); an event
 * without a driver fails the check test, so the mapping cannot fall behind the machine.
 */
import { expect, request as playwrightRequest, test } from '@playwright/test';
import type { APIRequestContext, Browser } from '@playwright/test';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { LiveApiError } from '../../machines/ports/live.port';
import type { LiveMediaEvent, LiveRoom } from '../../machines/ports/live.port';
import { createPathModel } from '../../machines/testing/paths';
import { liveViewingMachine } from '../../machines/live-viewing/live-viewing.machine';
import type { LiveViewingInput } from '../../machines/live-viewing/live-viewing.machine';
import { baseURL } from '../../playwright.config';
import { serverProcess } from './server-process';
import type { ServerProcess } from './server-process';
import { VIDEO_LOCK, accounts } from './support';
import type { Account } from './support';
import { FRONT, HEARTBEAT_WINDOW_MS, callScreen, decoded, endLive, goLive, person, room } from './live-support';
import type { Person } from './live-support';
import { liveMediaFact } from '../../machines/ports/facts';

const roomInfo = (over: Partial<LiveRoom> = {}): LiveRoom => ({
  userId: 1, yxAccid: 'yx-host', nickname: 'Host', title: 'Live', agoraChannelId: 'ch', yxRoomId: 'room', joinNum: 0,
  privateCallOpen: true, wishlist: [], userStatus: 0, liveRoomState: 0, isBlockUser: false, whoBlock: 0, ...over,
});
const done = (id: string, output?: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error });
const media = (type: LiveMediaEvent['type']): AnyEventObject => liveMediaFact({ type });

/** The world's usual way first: where two paths are as short, the first-listed event wins. */
const samples: AnyEventObject[] = [
  done('join', roomInfo()), done('join', roomInfo({ userStatus: 1 })), done('join', roomInfo({ liveRoomState: 1 })),
  fail('join', new LiveApiError(1000, 'This host has no live room.')),
  done('watch'), done('leave'),
  media('firstRemoteFrame'), media('hostLeft'), media('hostJoined'), media('connectionLost'),
  done('chat', { reason: 'roomClosed' }),
  { type: 'live.leave' }, { type: 'video.retry' },
];

/** What the driven viewer ends up seeing. */
type View = 'live' | 'calling' | 'liveEnd' | 'failed' | 'videoLost' | 'left';

function viewOf(s: AnyMachineSnapshot): View | null {
  if (s.status === 'done') return 'left';
  if (s.matches('failed')) return 'failed';
  if (s.matches('over')) return 'liveEnd';
  if (s.matches({ inRoom: { video: 'lost' } })) return 'videoLost';
  if (s.matches({ inRoom: { stage: 'calling' } })) return 'calling';
  if (s.matches({ inRoom: { stage: 'live', video: 'playing' } })) return 'live';
  return null;
}

const input: LiveViewingInput = { hostUserId: 1, entry: { account: 'yx-me', token: 't', nick: 'Me' } };

interface Step { event: EventObject; before: AnyMachineSnapshot }
interface ViewPath { view: View; steps: Step[] }

/** The shortest path to every view, from the machine. */
function viewPaths(): ViewPath[] {
  const { model } = createPathModel(liveViewingMachine, { events: samples, input });
  const best = new Map<View, ViewPath>();
  const paths = model.getShortestPaths({ allowDuplicatePaths: true } as never) as unknown as {
    steps: { event: EventObject; state: AnyMachineSnapshot }[];
    state: AnyMachineSnapshot;
  }[];
  for (const path of paths) {
    const view = viewOf(path.state);
    if (!view) continue;
    const steps = path.steps.filter((s) => s.event.type !== 'xstate.init');
    const all = path.steps;
    const withBefore = steps.map((s) => ({ event: s.event, before: all[all.indexOf(s) - 1]?.state ?? all[0]!.state }));
    const known = best.get(view);
    if (!known || known.steps.length > withBefore.length) best.set(view, { view, steps: withBefore });
  }
  return [...best.values()];
}

const keyOf = (e: EventObject): string => {
  const event = e as AnyEventObject;
  if (event.type.startsWith('media.')) return event.type;
  if (event.type.startsWith('xstate.done.actor.join')) {
    const r = event.output as LiveRoom;
    return r.liveRoomState === 1 ? 'join(ended)' : r.userStatus === 1 ? 'join(host in a call)' : 'join';
  }
  if (event.type.startsWith('xstate.done.actor.')) return `done.${event.type.slice('xstate.done.actor.'.length)}`;
  if (event.type.startsWith('xstate.error.actor.')) return `error.${event.type.slice('xstate.error.actor.'.length)}`;
  return event.type;
};

interface World {
  host: Person;
  viewer: Person;
  other: Person | null;
}

/** How the world is before the viewer opens the room. */
type Before = 'hostLive' | 'hostInCall' | 'roomEnded' | 'noRoom';

interface Driver {
  how: string;
  before?: Before;
  act?: (w: World, api: APIRequestContext) => Promise<void>;
}

const answered = 'the server or the media answers by itself';

/** The other viewer calls the host privately and the host takes it: the host leaves the room's channel. */
async function privateCall(w: World) {
  const other = w.other!;
  await expect(room(other.page)).toHaveAttribute('data-front-status', FRONT.live, { timeout: 15_000 });
  await other.page.getByRole('button', { name: 'Private call' }).click();
  await expect(callScreen(w.host.page)).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  await callScreen(w.host.page).getByRole('button', { name: 'Accept' }).click();
  await expect(callScreen(other.page)).toHaveAttribute('data-phase', 'connected', { timeout: 15_000 });
}

const DRIVERS: Record<string, Driver> = {
  join: { how: 'the host is live', before: 'hostLive' },
  'join(host in a call)': { how: 'the host is in a private call with another viewer when this one opens the room', before: 'hostInCall' },
  'join(ended)': { how: 'the host went live and ended before this viewer opens the room', before: 'roomEnded' },
  'error.join': { how: "the host never went live: the server says 'This host has no live room.'", before: 'noRoom' },
  'done.watch': { how: answered },
  'done.leave': { how: answered },
  'media.firstRemoteFrame': { how: "the host's video arrives and is decoded" },
  'media.hostLeft': { how: 'another viewer calls the host privately and the host takes it', act: (w) => privateCall(w) },
  'media.hostJoined': {
    how: 'the private call ends and the host is back',
    act: async (w) => {
      await callScreen(w.other!.page).getByRole('button', { name: 'End call' }).click();
    },
  },
  'media.connectionLost': {
    how: "the viewer's network is reset",
    act: async (w, api) => {
      const res = await api.post('/shell/api/drop', { data: { userId: w.viewer.account.userId } });
      expect(((await res.json()) as { dropped: number }).dropped).toBeGreaterThan(0);
    },
  },
  'done.chat': { how: 'the host ends the live', act: (w) => endLive(w.host.page) },
  'live.leave': { how: 'the viewer taps Back', act: (w) => w.viewer.page.getByRole('button', { name: /back/i }).first().click() },
  'video.retry': { how: 'the viewer taps Retry video', act: (w) => w.viewer.page.getByRole('button', { name: 'Retry video' }).click() },
};

/** Waits until the viewer's screen shows the state `s` a driver acts in. */
async function reach(w: World, s: AnyMachineSnapshot) {
  const r = room(w.viewer.page);
  if (s.matches({ inRoom: { video: 'lost' } })) await expect(w.viewer.page.getByRole('button', { name: 'Retry video' })).toBeVisible({ timeout: 15_000 });
  else if (s.matches({ inRoom: { stage: 'calling' } })) await expect(r).toHaveAttribute('data-front-status', FRONT.calling, { timeout: 15_000 });
  else if (s.matches({ inRoom: { stage: 'live', video: 'playing' } })) await expect(r).toHaveAttribute('data-video', 'playing', { timeout: 15_000 });
  // In the room: acted on once in the media channel (a network reset before the viewer's media link
  // exists would find nothing of the room's media to cut).
  else if (s.matches('inRoom')) await expect(r).toHaveAttribute('data-video', /^(waiting|playing)$/, { timeout: 15_000 });
}

/** What the viewer's screen says at the end of a path. */
async function expectView(w: World, view: View) {
  const r = room(w.viewer.page);
  switch (view) {
    case 'live': {
      await expect(r).toHaveAttribute('data-front-status', FRONT.live, { timeout: 15_000 });
      const video = await decoded(r.locator('video'));
      expect(video.frames).toBeGreaterThanOrEqual(3);
      expect(video.width).toBe(1280);
      break;
    }
    case 'calling':
      await expect(r).toHaveAttribute('data-front-status', FRONT.calling, { timeout: 15_000 });
      await expect(w.viewer.page.getByTestId('host-in-private-call')).toBeVisible();
      break;
    case 'liveEnd':
      await expect(r).toHaveAttribute('data-front-status', FRONT.liveEnd, { timeout: 15_000 });
      await expect(r.getByText('This live has ended.')).toBeVisible();
      break;
    case 'failed':
      await expect(w.viewer.page.getByRole('alert')).toHaveText('This host has no live room.', { timeout: 15_000 });
      await expect(w.viewer.page.getByRole('button', { name: 'Try again' })).toBeVisible();
      break;
    case 'videoLost':
      await expect(w.viewer.page.getByRole('button', { name: 'Retry video' })).toBeVisible({ timeout: 15_000 });
      break;
    case 'left':
      await expect(r).toHaveCount(0, { timeout: 15_000 });
      await expect(w.viewer.page).not.toHaveURL(/liveRoom/);
      break;
  }
}

const paths = viewPaths();

test('every view the viewing machine reaches has a path, and every event of the paths a driver', () => {
  expect(paths.map((p) => p.view).sort()).toEqual(['calling', 'failed', 'left', 'live', 'liveEnd', 'videoLost']);
  const missing = paths.flatMap((p) => p.steps.map((s) => keyOf(s.event)).filter((k) => !(k in DRIVERS)).map((k) => `${p.view}: ${k}`));
  expect(missing).toEqual([]);
});

// The driven paths, each on this slot's own server (the check above needs none).
test.describe('through the UI', () => {
  // A host is on air (her camera encoding) in every path: one such test at a time (VIDEO_LOCK).
  test.describe.configure({ lock: VIDEO_LOCK });
  let server: ServerProcess;
  let api: APIRequestContext;
  let people: { hosts: Account[]; users: Account[] };

  test.beforeAll(async () => {
    // A server of its own per parallel slot (a stable index, unlike the worker's, which grows when a worker restarts).
    const slot = test.info().parallelIndex;
    // Starting a server while other suites run can take a while on two cores.
    test.setTimeout(90_000);
    server = serverProcess(Number(new URL(baseURL).port) + 50 + slot, `live-paths-${slot}`, {
      SEED_HOSTS: '12', SEED_USERS: '20', LIVE_HEARTBEAT_WINDOW_MS: String(HEARTBEAT_WINDOW_MS), CALL_BILLING_PERIOD_MS: '2000',
    });
    await server.start();
    api = await playwrightRequest.newContext({ baseURL: server.baseURL });
    const all = await accounts(api);
    // Hosts who may take calls (level above 0), users with diamonds for a private call (levels 0 to 2).
    people = { hosts: all.filter((a) => a.userType === 2 && a.userLevel > 0), users: all.filter((a) => a.userType === 1 && a.userLevel < 3) };
  });

  test.afterAll(async () => {
    await api?.dispose();
    await server?.kill();
  });

  async function openWorld(browser: Browser, before: Before, needsOther: boolean): Promise<World> {
    const hostAccount = people.hosts.shift()!;
    const open = (account: Account, path: string) => person(browser, api, server.baseURL, account, path);
    const host = await open(hostAccount, before === 'noRoom' ? '/' : '/liveSetting');
    const roomPath = `/liveRoom?anchorId=${hostAccount.userId}`;
    if (before !== 'noRoom') await goLive(host.page, 'Paths');
    let other: Person | null = null;
    if (needsOther || before === 'hostInCall') other = await open(people.users.shift()!, roomPath);
    const w: World = { host, viewer: null as unknown as Person, other };
    if (before === 'hostInCall') await privateCall(w);
    if (before === 'roomEnded') await endLive(host.page);
    w.viewer = await open(people.users.shift()!, roomPath);
    return w;
  }

  for (const path of paths) {
    const keys = path.steps.map((s) => keyOf(s.event));
    test(`the viewer ends up seeing: ${path.view} (${keys.join(' → ')})`, async ({ browser }) => {
      test.setTimeout(90_000);
      const drivers = keys.map((k) => DRIVERS[k]!);
      const before = drivers.find((d) => d.before)?.before ?? 'hostLive';
      const needsOther = keys.some((k) => k === 'media.hostLeft');
      test.info().annotations.push({ type: 'path', description: keys.map((k, i) => `${k}: ${drivers[i]!.how}`).join(' → ') });
      const w = await openWorld(browser, before, needsOther);
      try {
        for (const [i, step] of path.steps.entries()) {
          const { act, how } = drivers[i]!;
          if (!act) continue;
          await test.step(`${keys[i]}: ${how}`, async () => {
            await reach(w, step.before);
            await act(w, api);
          });
        }
        await expectView(w, path.view);
      } finally {
        for (const p of [w.host, w.viewer, w.other]) await p?.context.close();
      }
    });
  }
});
