/**
 * The dev shell: a page that stands in for the native app shell during local runs. It
 * lists the accounts and opens the app for any of them in phone-sized frames, handing
 * the app the open parameters of SPEC §3 (stored auth and device data) in the query.
 *
 * DEVELOPMENT ONLY: these routes start a session for any account without a password.
 * createServer registers them unless `devShell: false`; a deployment must pass false.
 */
import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { APP_VERSION } from '../../src/api/codes';
import type { DeviceInfo } from '../../src/api/contract/session';
import type { ApiDeps } from '../api';
import { MAX_INJECTED_FAILURES } from '../api/faults';
import { ApiError } from '../api/transport';
import { OPERATOR_MOVES, TEXT_REASON_NEEDED, type OperatorMove } from '../api/withdraw';
import { MAX_REASON_LENGTH, TEXT_RECORD_NOT_FOUND } from '../../machines/codes/withdraw.codes';
import type { RealtimeHub } from '../realtime/hub';
import { UserType } from '../../machines/codes/user.codes';

/** What the dev shell needs: the API's dependencies and the hub, to cut a frame's links. */
export type DevShellDeps = ApiDeps & { hub: Pick<RealtimeHub, 'dropConnections'> };

export const SHELL_APP_ID = 'dev-shell';

/** The page's files, by URL, with their file name and type. */
const FILES = [
  ['/shell', 'index.html', 'text/html; charset=utf-8'],
  ['/shell/', 'index.html', 'text/html; charset=utf-8'],
  ['/shell/shell.js', 'shell.js', 'text/javascript; charset=utf-8'],
  ['/shell/shell.css', 'shell.css', 'text/css; charset=utf-8'],
] as const;

const Frame = z.optional(z.int().check(z.positive(), z.maximum(100_000)));
const OpenRequest = z.object({ userId: z.int().check(z.positive()), frame: Frame });
const VisitorRequest = z.object({ frame: Frame });
const DropRequest = z.object({ userId: z.int().check(z.positive()) });
/** A person by user id, or by account (the sign-in account or the IM account). */
const Who = { userId: z.optional(z.int().check(z.positive())), account: z.optional(z.string().check(z.minLength(1), z.maxLength(254))) };
const BoostRequest = z.object({ ...Who, on: z.boolean() });
const ForceEndRequest = z.object(Who);
const ServiceGagRequest = z.object({ ...Who, gagged: z.boolean() });
const FaultsRequest = z.object({
  baseConfigFailures: z.optional(z.int().check(z.minimum(0), z.maximum(MAX_INJECTED_FAILURES))),
  /** Only this user's signed-in requests take the faults (a test's own, whatever runs beside it). */
  userId: z.optional(z.int().check(z.positive())),
});
const MoveRequest = z.object({
  id: z.int().check(z.positive()),
  to: z.enum(Object.keys(OPERATOR_MOVES) as [OperatorMove, ...OperatorMove[]]),
  reason: z.optional(z.string().check(z.maxLength(MAX_REASON_LENGTH * 2))),
});
const FaultsQuery = z.object({ userId: z.optional(z.string().check(z.regex(/^[1-9]\d{0,9}$/))) });

/** The device of shell frame n: the same frame number always stands for the same phone. */
function frameDevice(frame = 1): DeviceInfo {
  return {
    deviceType: 'android',
    deviceId: `dev-shell-frame-${frame}`,
    deviceNo: `DS-${String(frame).padStart(4, '0')}`,
    osType: 'android',
    osVersion: '14',
    appVersion: APP_VERSION,
  };
}

export async function devShell(app: FastifyInstance, { users, sessions, hub, faults, live, db, withdrawals }: DevShellDeps): Promise<void> {
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const idByAccid = db.prepare<[string], number>('SELECT id FROM users WHERE yx_accid = ?').pluck();
  /** The user a live hook names, or undefined. */
  const named = (who: { userId?: number | undefined; account?: string | undefined }) => {
    if (who.userId !== undefined) return users.findById(who.userId);
    if (who.account === undefined) return undefined;
    const byAccid = idByAccid.get(who.account);
    return users.findByAccount(who.account) ?? (byAccid === undefined ? undefined : users.findById(byAccid));
  };

  for (const [url, file, type] of FILES) {
    // Read per request so that edits show on reload; the page is small and used by one developer.
    app.get(url, async (_request, reply) =>
      reply.type(type).header('cache-control', 'no-cache').send(await readFile(dir + file)));
  }

  app.get('/shell/api/accounts', async () => users.listAccounts());

  /** Open parameters for a new session of the user in the given frame. */
  const openParams = (user: Parameters<typeof sessions.open>[0], frame: number | undefined) => {
    const device = frameDevice(frame);
    const { token, loginUuid } = sessions.open(user, SHELL_APP_ID, device);
    return { loginUuid, token, appId: SHELL_APP_ID, ...device };
  };

  app.post('/shell/api/open', async (request, reply) => {
    const parsed = OpenRequest.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ error: 'Expected { userId, frame? }.' });
    const user = users.findById(parsed.data.userId);
    if (!user || user.is_visitor) return reply.code(404).send({ error: 'No such account.' });
    return openParams(user, parsed.data.frame);
  });

  /**
   * Cuts every realtime socket of the account without a closing handshake, as a network
   * reset would: the app's reconnection can be watched (and timed) from the shell.
   */
  app.post('/shell/api/drop', async (request, reply) => {
    const parsed = DropRequest.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ error: 'Expected { userId }.' });
    const user = users.findById(parsed.data.userId);
    if (!user) return reply.code(404).send({ error: 'No such account.' });
    return { dropped: hub.dropConnections(user.yx_accid) };
  });

  /**
   * Injected failures (server/api/faults.ts): `{ baseConfigFailures: n }` makes the next n
   * base-config requests answer HTTP 500, for the client's retry path; with `userId`, the next n
   * of that user's. Answers the counts now pending; GET reads them (`?userId=` for a user's).
   */
  app.get('/shell/api/faults', async (request, reply) => {
    const parsed = FaultsQuery.safeParse(request.query ?? {});
    if (!parsed.success) return reply.code(400).send({ error: 'Expected ?userId= a user id, or nothing.' });
    return faults.state(parsed.data.userId === undefined ? undefined : Number(parsed.data.userId));
  });
  app.post('/shell/api/faults', async (request, reply) => {
    const parsed = FaultsRequest.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: `Expected { baseConfigFailures?: 0…${MAX_INJECTED_FAILURES}, userId? }.` });
    const { baseConfigFailures, userId } = parsed.data;
    return faults.set(baseConfigFailures === undefined ? {} : { baseConfigFailures }, userId);
  });

  /**
   * Live rooms (src/api/contract/live.ts), what the service would do: `boost` sends the host
   * SPEC §4 system message 63 (`on`) or 64 (boosting exposure on/off); `forceEnd` ends the
   * host's live room as the service (the room ends as by endLiveRoom; the host gets 44 code 3
   * when connected); `serviceGag` gags or ungags a person in every live room (whoBlock 1).
   * Each takes `{ userId }` or `{ account }` (sign-in or IM account).
   */
  app.post('/shell/api/live/boost', async (request, reply) => {
    const parsed = BoostRequest.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: 'Expected { userId | account, on }.' });
    const host = named(parsed.data);
    if (!host || host.user_type !== UserType.host) return reply.code(404).send({ error: 'No such host.' });
    return { sent: live.boost(host.id, parsed.data.on) };
  });

  app.post('/shell/api/live/forceEnd', async (request, reply) => {
    const parsed = ForceEndRequest.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: 'Expected { userId | account }.' });
    const host = named(parsed.data);
    if (!host || host.user_type !== UserType.host) return reply.code(404).send({ error: 'No such host.' });
    return { ended: live.forceEnd(host.id) };
  });

  app.post('/shell/api/live/serviceGag', async (request, reply) => {
    const parsed = ServiceGagRequest.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: 'Expected { userId | account, gagged }.' });
    const user = named(parsed.data);
    if (!user) return reply.code(404).send({ error: 'No such account.' });
    live.setServiceGag(user.id, parsed.data.gagged);
    return { gagged: parsed.data.gagged };
  });

  /**
   * The operator's stand-in for money out (a back office in production; server/api/withdraw.ts
   * `move`): every host's withdrawals, newest first, and a move of one to 'processing', 'paid' or
   * 'refused' (with `reason`). A refused one returns its amount to the host's income once; paid
   * and refused send the host a system mail. 404 for an unknown withdrawal, 409 for one that
   * ended (or is processing already), 400 for a missing reason.
   */
  app.get('/shell/api/withdrawals', async () => ({ list: withdrawals.operatorList() }));
  app.post('/shell/api/withdrawals/move', async (request, reply) => {
    const parsed = MoveRequest.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: "Expected { id, to: 'processing' | 'paid' | 'refused', reason? }." });
    try {
      return { record: withdrawals.move(parsed.data.id, parsed.data.to, parsed.data.reason) };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const status = err.message === TEXT_RECORD_NOT_FOUND ? 404 : err.message === TEXT_REASON_NEEDED ? 400 : 409;
      return reply.code(status).send({ error: err.message });
    }
  });

  /** The visitor of the frame's device (SPEC §6 Visitor), as /api/login/visit would create it. */
  app.post('/shell/api/visitor', async (request, reply) => {
    const parsed = VisitorRequest.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: 'Expected { frame? }.' });
    const device = frameDevice(parsed.data.frame);
    return openParams(users.visitor(device.deviceId), parsed.data.frame);
  });
}
