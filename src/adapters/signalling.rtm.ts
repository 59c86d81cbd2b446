/**
 * The call-signalling port on Agora RTM (`agora-rtm-sdk` 2.3.0): SPEC §3 Call enums
 * (signalling actions video call 0, cancel 1, accept 2, reject 3, hangup 4, audio call 10).
 *
 * A signal is one JSON string published to the peer's user channel
 * (`publish(peer, json, { channelType: 'USER' })`) and arrives through the client's `message`
 * event. The RTM token comes from the app's /api/index/getAgoraRtmToken (`deps.fetchRtmToken`),
 * fetched at every login. The link state (`linkState` event) gives connected / disconnected.
 *
 * Types only are imported from the SDK here; the code arrives through `deps.loadSdk`
 * (signalling.rtm.load.ts). Telemetry: log upload is off (`logUpload: false`); RTM 2.3.0 has no
 * public option to turn off its event reporting.
 */
import type { RTMClient, RTMConfig, RTMEvents } from 'agora-rtm-sdk';
import { SignalAction, SignalFailure, TEXT_PEER_UNAVAILABLE } from '../../machines/ports/signalling.port';
import type { CallSignal, SignalEvent, SignalFailureKind, SignallingPort } from '../../machines/ports/signalling.port';

/** The part of the RTM client this adapter uses (the doubles implement exactly this). */
export type RtmClient = Pick<RTMClient, 'login' | 'logout' | 'publish' | 'addEventListener' | 'removeEventListener'>;

/** The SDK's default export: `new AgoraRTM.RTM(appId, userId, config)`. */
export interface RtmSdk {
  RTM: new (appId: string, userId: string, rtmConfig?: RTMConfig) => RtmClient;
}

export interface RtmSignallingDeps {
  appId: string;
  /** Resolves to the SDK object; production passes `loadRtm` (signalling.rtm.load.ts). */
  loadSdk: () => Promise<RtmSdk>;
  /** /api/index/getAgoraRtmToken. */
  fetchRtmToken: () => Promise<{ rtmToken: string; rtcToken: string }>;
  now?: () => number;
  newId?: () => string;
}

/** RTM's code for a receiver who is not online. */
export const RTM_RECEIVER_OFFLINE = -11033;

/**
 * A failure of the signalling service, with the RTM code when there is one
 * (e.g. -10005 invalid token, -11033 receiver offline: the port's `unavailable`).
 */
export class SignallingError extends SignalFailure {
  override name = 'SignallingError';
  constructor(message: string, readonly code?: number, options?: { cause?: unknown; kind?: SignalFailureKind }) {
    super(options?.kind ?? (code === RTM_RECEIVER_OFFLINE ? 'unavailable' : 'refused'), message, options);
  }
}

/** Telemetry off where RTM allows it: no log upload, only errors in the console. */
export const RTM_CONFIG = { logUpload: false, logLevel: 'error' } as const satisfies RTMConfig;

const ACTIONS: ReadonlySet<number> = new Set(Object.values(SignalAction));
const SEEN_IDS = 200;

export function createRtmSignallingPort(deps: RtmSignallingDeps): SignallingPort {
  const now = deps.now ?? Date.now;
  const newId = deps.newId ?? randomId;
  const listeners = new Set<(event: SignalEvent) => void>();
  const seen = new Set<string>();
  let sdkLoading: Promise<RtmSdk> | null = null;
  let session: { client: RtmClient; account: string; detach: () => void } | null = null;
  let connected = false;

  const emit = (event: SignalEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };

  function loadSdk(): Promise<RtmSdk> {
    sdkLoading ??= deps.loadSdk().catch((error: unknown) => {
      sdkLoading = null;
      throw error;
    });
    return sdkLoading;
  }

  function attach(client: RtmClient, account: string): () => void {
    const onMessage = (event: RTMEvents.MessageEvent) => {
      if (event.channelType !== 'USER' || typeof event.message !== 'string') return;
      const signal = parseSignal(event.message, event.publisher, account, event.timestamp);
      if (!signal || seen.has(signal.id)) return;
      seen.add(signal.id);
      if (seen.size > SEEN_IDS) seen.delete(seen.values().next().value as string);
      emit({ type: 'signal', signal });
    };
    const onLinkState = (event: RTMEvents.LinkStateEvent) => {
      if (event.currentState === 'CONNECTED' && !connected) {
        connected = true;
        emit({ type: 'connected' });
      } else if ((event.currentState === 'DISCONNECTED' || event.currentState === 'FAILED' || event.currentState === 'SUSPENDED') && connected) {
        connected = false;
        emit({ type: 'disconnected' });
      }
    };
    client.addEventListener('message', onMessage);
    client.addEventListener('linkState', onLinkState);
    return () => {
      client.removeEventListener('message', onMessage);
      client.removeEventListener('linkState', onLinkState);
    };
  }

  async function end(): Promise<void> {
    const current = session;
    session = null;
    connected = false;
    if (!current) return;
    current.detach(); // a logout is not a lost link: no `disconnected` for it
    await current.client.logout().catch(() => undefined);
  }

  return {
    // `token` is not used: the RTM token is the one the API hands out for this user.
    async login(account, _token) {
      await end();
      const sdk = await loadSdk().catch((error: unknown) => {
        throw new SignallingError(`RTM SDK unavailable: ${messageOf(error)}`, undefined, { cause: error });
      });
      const { rtmToken } = await deps.fetchRtmToken().catch((error: unknown) => {
        throw new SignallingError(`RTM token unavailable: ${messageOf(error)}`, undefined, { cause: error });
      });
      const client = new sdk.RTM(deps.appId, account, RTM_CONFIG);
      const detach = attach(client, account);
      try {
        await client.login({ token: rtmToken });
      } catch (error) {
        detach();
        throw new SignallingError(`RTM login failed: ${messageOf(error)}`, codeOf(error), { cause: error });
      }
      session = { client, account, detach };
      if (!connected) {
        // The SDK reports CONNECTED through linkState during login; make sure the port says it once.
        connected = true;
        emit({ type: 'connected' });
      }
    },

    logout: end,

    async send(to, { action, channelId, payload }) {
      if (!session) throw new SignallingError('RTM is not logged in', undefined, { kind: 'disconnected' });
      const signal: CallSignal = { id: newId(), action, channelId, from: session.account, to, time: now(), ...(payload ? { payload } : {}) };
      try {
        await session.client.publish(to, JSON.stringify(signal), { channelType: 'USER' });
      } catch (error) {
        const code = codeOf(error);
        const message = code === RTM_RECEIVER_OFFLINE ? TEXT_PEER_UNAVAILABLE : `RTM could not reach ${to}: ${messageOf(error)}`;
        throw new SignallingError(message, code, { cause: error });
      }
      return signal;
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** An incoming signal, or null when the text is not one (untrusted input; the publisher is taken from RTM, not the text). */
export function parseSignal(text: string, publisher: string, self: string, receivedAt: number): CallSignal | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  const { id, action, channelId, time, payload } = data as Record<string, unknown>;
  if (typeof action !== 'number' || !ACTIONS.has(action) || typeof channelId !== 'string') return null;
  const signal: CallSignal = {
    id: typeof id === 'string' && id ? id : `${publisher}:${channelId}:${action}:${typeof time === 'number' ? time : receivedAt}`,
    action: action as SignalAction,
    channelId,
    from: publisher,
    to: self,
    time: typeof time === 'number' ? time : receivedAt,
  };
  if (payload && typeof payload === 'object' && !Array.isArray(payload)) signal.payload = payload as Record<string, unknown>;
  return signal;
}

function randomId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function codeOf(error: unknown): number | undefined {
  const { code, errorCode } = (error ?? {}) as { code?: unknown; errorCode?: unknown };
  if (typeof code === 'number') return code;
  return typeof errorCode === 'number' ? errorCode : undefined;
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object') {
    const { reason, message } = error as { reason?: unknown; message?: unknown };
    if (typeof reason === 'string' && reason) return reason;
    if (typeof message === 'string' && message) return message;
  }
  return String(error);
}
