/**
 * The API routes: exactly the endpoints the contract declares (src/api/contract), each
 * with its handler. The `Handlers` type makes a contract endpoint without a handler a
 * compile error; `apiRoutes` makes it a start-up error too.
 */
import { endpoints, type Endpoint } from '../../src/api/contract';
import type { Database } from 'better-sqlite3';
import type { DoorLimits } from '../auth/limits';
import type { Sessions } from '../auth/sessions';
import type { Users } from '../users/users';
import type { CallEngine, CallRealtimeDeps } from './billing';
import { callHandlers } from './call';
import { chatHandlers, type ChatRealtimeDeps } from './chat';
import { configHandlers } from './config';
import type { Faults } from './faults';
import { giftHandlers } from './gift';
import { homeHandlers } from './home';
import { createIdempotency } from './idempotency';
import { liveHandlers } from './live';
import type { LiveEngine, LiveRealtimeDeps } from './live.rooms';
import { newsHandlers, type NewsRealtimeDeps } from './news';
import { peopleHandlers, type PeopleRealtimeDeps } from './people';
import { privateMsgHandlers, type PrivateMsgRealtimeDeps } from './private-msg';
import { realtimeHandlers, type RealtimeApiDeps } from './realtime';
import { sessionHandlers } from './session';
import { walletHandlers } from './wallet';
import type { Orders } from './wallet.orders';
import { withdrawHandlers, type Withdrawals } from './withdraw';
import { isEndpoint, type ApiRoute, type Handler, type HandlersOf } from './transport';

export type Handlers = HandlersOf<typeof endpoints>;

export interface ApiDeps {
  users: Users;
  sessions: Sessions;
  /** Failed sign-ins, sign-ups and visitor entries counted per account and address (server/auth/limits.ts). */
  limits: DoorLimits;
  /** The hub's parts the API uses (blocks and presence are shared with the IM and presence sockets). */
  realtime: RealtimeApiDeps & ChatRealtimeDeps & NewsRealtimeDeps & PrivateMsgRealtimeDeps & PeopleRealtimeDeps & CallRealtimeDeps
    & LiveRealtimeDeps;
  db: Database;
  /** Injected failures (development only: set through the dev shell, see faults.ts). */
  faults: Faults;
  /** One-to-one calls: their state, billing and timers (billing.ts). */
  calls: CallEngine;
  /** Live rooms: going live, heartbeat deadlines, viewers, wishlists, the gift task (live.rooms.ts). */
  live: LiveEngine;
  /** Hosts besides this origin that stored picture and video URLs may point at (src/api/contract/media.ts isAllowedMediaUrl). */
  mediaHosts: readonly string[];
  /** Recharge orders, credited once (wallet.orders.ts). */
  orders: Orders;
  /** Money out: withdrawals held once and returned once (withdraw.ts). */
  withdrawals: Withdrawals;
}

export function apiRoutes(deps: ApiDeps): ApiRoute[] {
  // One store of money requests' keys for every endpoint that moves money (idempotency.ts).
  const keys = createIdempotency(deps.db);
  const handlers: Handlers = {
    ...sessionHandlers(deps),
    ...realtimeHandlers(deps.realtime),
    ...configHandlers(deps.db),
    ...walletHandlers({ db: deps.db, orders: deps.orders, keys }),
    ...withdrawHandlers({ withdrawals: deps.withdrawals, keys }),
    ...newsHandlers(deps),
    ...chatHandlers(deps),
    ...privateMsgHandlers({ ...deps, keys }),
    ...homeHandlers(deps),
    ...peopleHandlers(deps),
    ...liveHandlers(deps),
    ...callHandlers({ ...deps, keys }),
    ...giftHandlers({ ...deps, keys }),
  };
  const routes: ApiRoute[] = [];
  for (const [name, endpoint] of Object.entries(endpoints)) {
    if (!isEndpoint(endpoint)) continue;
    // Each handler's type matches its own endpoint (checked by `Handlers`); here they are carried as one list.
    const handler = (handlers as Partial<Record<string, Handler<Endpoint>>>)[name];
    if (!handler) throw new Error(`No handler for ${endpoint.path} (${name}).`);
    routes.push({ endpoint, handler });
  }
  return routes;
}
