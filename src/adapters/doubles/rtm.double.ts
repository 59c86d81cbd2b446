/**
 * An in-memory double of exactly the Agora RTM 2.x surface that signalling.rtm.ts uses, typed
 * from the SDK's own declarations (`implements Pick<RTMClient, …>`), so an SDK upgrade that
 * changes one of these signatures breaks `tsc` here.
 *
 * `RtmCloud` plays the RTM service for any number of `RtmDoubleSdk`s: tokens per user, login
 * with the real error codes, user-channel publish (an offline receiver is an error, as in RTM 2),
 * same-user login elsewhere, dropped and restored links. Nothing here touches the network.
 */
import type {
  LoginResponse, LogoutResponse, PublishOptions, PublishResponse, RTMClient, RTMConfig, RTMEvents,
} from 'agora-rtm-sdk';
import type { RtmClient, RtmSdk } from '../signalling.rtm';

type EventMap = RTMEvents.RTMClientEventMap;
type LoginOptions = Parameters<RTMClient['login']>[0];

/** RTM 2.x error codes (the SDK bundle's RTM_ERROR_* table). */
export const RtmDoubleCode = {
  notLogin: -10002,
  invalidToken: -10005,
  loginRejected: -10012,
  receiverOffline: -11033,
} as const;

/** Shaped like the SDK's RTMBaseError (code, errorCode, reason, operation). */
export class RtmDoubleError extends Error {
  override name = 'RTMBaseError';
  readonly error = true;
  readonly errorCode: number;
  constructor(readonly code: number, readonly reason: string, readonly operation: string) {
    super(`${operation} failed: ${reason}`);
    this.errorCode = code;
  }
}

export class RtmCloud {
  private readonly online = new Map<string, RtmDoubleClient>();
  private readonly loginFailures = new Map<string, number>();
  private clock = 1_700_000_000_000;

  /** The token the API would hand out for `account`. */
  tokenFor(account: string): string {
    return `rtm-token-${account}`;
  }

  failNextLogin(account: string, code: number): void {
    this.loginFailures.set(account, code);
  }

  /** The link of `account` drops; the SDK would try to reconnect. */
  dropLink(account: string): void {
    this.online.get(account)?.linkChanged('DISCONNECTED', 'KEEP_ALIVE_TIMEOUT');
  }

  /** The SDK's reconnect of `account` succeeded. */
  restoreLink(account: string): void {
    this.online.get(account)?.linkChanged('CONNECTED', 'RECONNECT_SUCCESS');
  }

  isOnline(account: string): boolean {
    return this.online.has(account);
  }

  now(): number {
    this.clock += 1000;
    return this.clock;
  }

  /** @internal */
  login(client: RtmDoubleClient, token: string | undefined): void {
    const failure = this.loginFailures.get(client.userId);
    if (failure !== undefined) {
      this.loginFailures.delete(client.userId);
      throw new RtmDoubleError(failure, 'LOGIN_REJECTED', 'login');
    }
    if (token !== this.tokenFor(client.userId)) throw new RtmDoubleError(RtmDoubleCode.invalidToken, 'INVALID_TOKEN', 'login');
    const older = this.online.get(client.userId);
    if (older && older !== client) {
      this.online.delete(client.userId);
      older.linkChanged('FAILED', 'SAME_UID_LOGIN');
    }
    this.online.set(client.userId, client);
  }

  /** @internal */
  logout(client: RtmDoubleClient): void {
    if (this.online.get(client.userId) === client) this.online.delete(client.userId);
  }

  /** @internal */
  publish(from: RtmDoubleClient, to: string, message: string | Uint8Array, options: PublishOptions | undefined): void {
    if (this.online.get(from.userId) !== from) throw new RtmDoubleError(RtmDoubleCode.notLogin, 'NOT_LOGIN', 'publish');
    if (options?.channelType !== 'USER') throw new RtmDoubleError(-11001, 'only user-channel messages are simulated', 'publish');
    const receiver = this.online.get(to);
    if (!receiver) throw new RtmDoubleError(RtmDoubleCode.receiverOffline, 'Publish a message to user now is offline.', 'publish');
    receiver.dispatch('message', {
      channelType: 'USER',
      channelName: from.userId,
      topicName: '',
      messageType: typeof message === 'string' ? 'STRING' : 'BINARY',
      customType: options.customType ?? '',
      message,
      publisher: from.userId,
      timestamp: this.now(),
    });
  }

  /** A raw user message from `publisher` as the SDK would deliver it (for malformed-input tests). */
  deliverRaw(to: string, publisher: string, message: string): void {
    this.online.get(to)?.dispatch('message', {
      channelType: 'USER', channelName: publisher, topicName: '', messageType: 'STRING', customType: '', message, publisher, timestamp: this.now(),
    });
  }
}

/** One simulated device's `AgoraRTM` object: `new sdk.RTM(appId, userId, config)`. */
export class RtmDoubleSdk implements RtmSdk {
  readonly clients: RtmDoubleClient[] = [];
  readonly RTM: new (appId: string, userId: string, rtmConfig?: RTMConfig) => RtmDoubleClient;

  constructor(readonly cloud: RtmCloud) {
    const clients = this.clients;
    this.RTM = class extends RtmDoubleClient {
      constructor(appId: string, userId: string, rtmConfig?: RTMConfig) {
        super(cloud, appId, userId, rtmConfig);
        clients.push(this);
      }
    };
  }

  get last(): RtmDoubleClient {
    const client = this.clients.at(-1);
    if (!client) throw new Error('No RTM client yet.');
    return client;
  }
}

type AnyListener = (...args: never[]) => void;

export class RtmDoubleClient implements RtmClient {
  private readonly listeners = new Map<keyof EventMap, Set<AnyListener>>();
  private state: RTMEvents.LinkState = 'IDLE';
  readonly loginCalls: (LoginOptions | undefined)[] = [];
  readonly published: { channelName: string; message: string | Uint8Array; options: PublishOptions | undefined }[] = [];

  constructor(readonly cloud: RtmCloud, readonly appId: string, readonly userId: string, readonly config: RTMConfig | undefined) {}

  async login(options?: LoginOptions): Promise<LoginResponse> {
    this.loginCalls.push(options);
    await Promise.resolve();
    this.linkChanged('CONNECTING', 'LOGIN');
    try {
      this.cloud.login(this, options?.token);
    } catch (error) {
      this.linkChanged('FAILED', 'LOGIN_REJECTED');
      throw error;
    }
    this.linkChanged('CONNECTED', 'LOGIN_SUCCESS');
    return { timestamp: this.cloud.now() };
  }

  async logout(): Promise<LogoutResponse> {
    this.cloud.logout(this);
    this.linkChanged('IDLE', 'LOGOUT');
    return { timestamp: this.cloud.now() };
  }

  async publish(channelName: string, message: string | Uint8Array, options?: PublishOptions): Promise<PublishResponse> {
    this.published.push({ channelName, message, options });
    await Promise.resolve();
    this.cloud.publish(this, channelName, message, options);
    return { timestamp: this.cloud.now(), channelName };
  }

  addEventListener<EventName extends keyof EventMap>(eventName: EventName, listener: EventMap[EventName]): void {
    let set = this.listeners.get(eventName);
    if (!set) {
      set = new Set();
      this.listeners.set(eventName, set);
    }
    set.add(listener as AnyListener);
  }

  removeEventListener<EventName extends keyof EventMap>(eventName: EventName, listener: EventMap[EventName]): void {
    this.listeners.get(eventName)?.delete(listener as AnyListener);
  }

  get listenerCount(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  /** @internal */
  dispatch<EventName extends keyof EventMap>(eventName: EventName, ...args: Parameters<EventMap[EventName]>): void {
    for (const listener of [...(this.listeners.get(eventName) ?? [])]) (listener as unknown as (...a: Parameters<EventMap[EventName]>) => void)(...args);
  }

  /** @internal */
  linkChanged(currentState: RTMEvents.LinkState, reasonCode: RTMEvents.LinkStateChangeReasonCode): void {
    const previousState = this.state;
    this.state = currentState;
    this.dispatch('linkState', {
      currentState,
      previousState,
      serviceType: 'MESSAGE',
      operation: reasonCode === 'LOGOUT' ? 'LOGOUT' : reasonCode === 'RECONNECT_SUCCESS' ? 'RECONNECTED' : 'LOGIN',
      reason: reasonCode,
      reasonCode,
      affectedChannels: [],
      unrestoredChannels: [],
      isResumed: false,
      timestamp: this.cloud.now(),
    });
  }
}
