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

export type ImConnectionEvent =
  | { type: 'im.event'; event: ImEvent }
  | ({ type: 'im.sendText' } & SendRequest)
  | SendOutcome
  | { type: 'app.hidden' }
  | { type: 'app.visible' };

/** What the connection reports to whoever owns it (the root actor). */
export type ImOutput =
  | { type: 'im.message'; message: ImMessage }
  | { type: 'im.notification'; content: unknown; from: string }
  | { type: 'im.unreadChanged'; count: number }
  | { type: 'im.conversationChanged'; conversation: ImConversation }
  /** Logged in (again): lists kept elsewhere load (again). */
  | { type: 'im.connected' }
  /** The session must end: `text` is shown first when there is one. */
  | { type: 'im.sessionEnded'; text: string | null };

export type ImConnectionEmitted =
  | ImOutput
  | { type: 'sendResult'; idClient: string; message: ImMessage }
  /** A second send of a message already under way (a double tap). */
  | { type: 'sendIgnored'; idClient: string }
  | { type: 'sendFailed'; idClient: string; reason: 'notConnected' | 'refused' | 'error'; text: string };

/** The output for a port event worth reporting (see the `isNewReport` guard). */
export function outputOf(event: ImConnectionEvent): ImOutput {
  const e = event.type === 'im.event' ? event.event : null;
  if (e?.type === 'message') return { type: 'im.message', message: e.message };
  if (e?.type === 'notification') return { type: 'im.notification', content: e.notification.content, from: e.notification.from };
  if (e?.type === 'unread') return { type: 'im.unreadChanged', count: e.total };
  if (e?.type === 'conversation') return { type: 'im.conversationChanged', conversation: e.conversation };
  throw new Error(`${e?.type ?? event.type} is not reported`);
}

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
