/**
 * The IM connection's shapes (input, context, events, what it reports) and the pure
 * readings of its events, declared once for the machine (im-connection.machine.ts), its
 * composition, the session and tests.
 */
import type { ImConversation, ImEvent, ImMessage } from '../ports/im.port';

export interface ImConnectionInput {
  account: string;
  token: string;
  /** Hosts disconnect while the app is hidden (SPEC §4). */
  disconnectWhenHidden: boolean;
}

export interface ImConnectionContext extends ImConnectionInput {
  attempts: number;
  /** Tries in a row that found the service out of reach. */
  offlineTries: number;
  lastError: number | null;
  /** The last visibility the app reported (a fact from outside). */
  appVisible: boolean;
  seen: readonly string[];
  /** Client ids of the sends under way. */
  sending: readonly string[];
  /** Sends made while a login was under way, in order: they start once connected. */
  held: readonly SendRequest[];
}

export interface SendRequest {
  to: string;
  text: string;
  idClient: string;
  /** SPEC §3 Message ext (e.g. a secret message's privateMsg). */
  ext?: Record<string, unknown>;
}

export type SendOutcome =
  | { type: 'im.sent'; idClient: string; message: ImMessage }
  | { type: 'im.sendFailed'; idClient: string; reason: 'refused' | 'error'; text: string };

/** The IM port's facts, flat (im-connection.actors.ts reads them off the port's subscription). */
export type ImFact =
  | { type: 'im.message'; message: ImMessage }
  | { type: 'im.notification'; content: unknown; from: string }
  | { type: 'im.unreadChanged'; count: number }
  | { type: 'im.conversationChanged'; conversation: ImConversation }
  /** The same account logged in elsewhere: this connection is closed for good. */
  | { type: 'im.kicked' }
  /** The link dropped; the machine decides whether and how to log in again. */
  | { type: 'im.disconnected' };

/** The flat fact of an event of the IM port. */
export function factOf(event: ImEvent): ImFact {
  switch (event.type) {
    case 'message': return { type: 'im.message', message: event.message };
    case 'notification': return { type: 'im.notification', content: event.notification.content, from: event.notification.from };
    case 'unread': return { type: 'im.unreadChanged', count: event.total };
    case 'conversation': return { type: 'im.conversationChanged', conversation: event.conversation };
    case 'kicked': return { type: 'im.kicked' };
    case 'disconnected': return { type: 'im.disconnected' };
  }
}

export type ImConnectionEvent =
  | ImFact
  | ({ type: 'im.sendText' } & SendRequest)
  | SendOutcome
  | { type: 'app.hidden' }
  | { type: 'app.visible' };

/**
 * What the connection emits, one name from the port to every listener: the talks, the call's
 * chat, the banner, the conversations and the session subscribe to what each needs.
 */
export type ImConnectionEmitted =
  | { type: 'im.message'; message: ImMessage }
  | { type: 'im.notification'; content: unknown; from: string }
  | { type: 'im.unreadChanged'; count: number }
  | { type: 'im.conversationChanged'; conversation: ImConversation }
  /** Logged in (again): lists kept elsewhere load (again). */
  | { type: 'im.connected' }
  /** The session must end: `text` is shown first when there is one. */
  | { type: 'im.sessionEnded'; text: string | null }
  /** The answer to a send, under the client id it was made with. */
  | { type: 'im.sent'; idClient: string; message: ImMessage }
  | { type: 'im.sendFailed'; idClient: string; reason: 'notConnected' | 'refused' | 'error'; text: string }
  /** A second send of a message already under way (a double tap). */
  | { type: 'im.sendIgnored'; idClient: string };

/** The facts that reach listeners as they came (the others are the connection's own). */
export type ImReport = Extract<ImConnectionEmitted, { type: 'im.message' | 'im.notification' | 'im.unreadChanged' | 'im.conversationChanged' }>;

export const codeOf = (error: unknown): number | null =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'number'
    ? (error as { code: number }).code
    : null;

/** The request an `im.sendText` carries. */
export function requestOf(event: ImConnectionEvent): SendRequest {
  if (event.type !== 'im.sendText') throw new Error(`${event.type} is not a send`);
  return { to: event.to, text: event.text, idClient: event.idClient, ...(event.ext ? { ext: event.ext } : {}) };
}

/** A send with this client id is held or under way already (a double tap). */
export const isKnownSend = (context: Pick<ImConnectionContext, 'held' | 'sending'>, idClient: string): boolean =>
  context.sending.includes(idClient) || context.held.some((r) => r.idClient === idClient);
