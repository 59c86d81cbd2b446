/**
 * `?inspect=1` opens the Stately inspector on the root actor (every child shows). Off by
 * default, and then the inspector's code is not even loaded, so it makes no request. A
 * production build has it only when the deployment builds with VITE_INSPECTOR=1: without it
 * the flag is ignored and the inspector is not in the build at all.
 *
 * What is inspected leaves the page for another window (stately.ai), so every snapshot and
 * event goes through `redactSecrets` first, in any build: the session token, the IM token, the
 * rtm/rtc tokens, passwords and keys never reach it.
 */
import type { InspectionEvent, Observer } from 'xstate';

export const REDACTED = '[redacted]';

/** Field names that hold a secret: tokens of every kind (token, imToken, rtmToken, rtcToken, …), passwords, secrets, keys. */
const SECRET_FIELD = /(token|password|secret|credential|apikey|subscriptionkey|aeskey|aesiv)$/i;
/** Deeper than this, a value is summarized: snapshots nest actors within actors. */
const DEPTH_LIMIT = 12;

const isActorRef = (value: object): value is { id?: string; sessionId: string } =>
  typeof (value as { send?: unknown }).send === 'function' && typeof (value as { sessionId?: unknown }).sessionId === 'string';

/** Whether `key` of `owner` is a secret: by its name, or the translator's key (a `key` beside a `region`, SPEC §3 base config). */
const isSecretField = (key: string, owner: object) => SECRET_FIELD.test(key) || (key === 'key' && 'region' in owner);

/**
 * A JSON-safe copy of `value` with every secret field's value replaced by REDACTED. Actors are
 * shown by id, cycles and what lies deeper than DEPTH_LIMIT are cut, functions dropped.
 */
export function redactSecrets(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'function' || typeof value === 'symbol' ? undefined : value;
  if (isActorRef(value)) return { id: value.id, sessionId: value.sessionId };
  if (seen.has(value)) return '[circular]';
  if (depth >= DEPTH_LIMIT) return '[…]';
  seen.add(value);
  try {
    const inner = (v: unknown) => redactSecrets(v, depth + 1, seen);
    if (Array.isArray(value)) return value.map(inner);
    if (value instanceof Map) return redactSecrets(Object.fromEntries(value), depth, seen);
    if (value instanceof Set) return [...value].map(inner);
    if (value instanceof Date) return value.toISOString();
    if (value instanceof Error) return { name: value.name, message: value.message };
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      copy[key] = isSecretField(key, value) && field !== null && field !== undefined && field !== '' ? REDACTED : inner(field);
    }
    return copy;
  } finally {
    seen.delete(value);
  }
}

export interface InspectorEnv {
  PROD: boolean;
  VITE_INSPECTOR?: string;
}

/** Whether this build may run the inspector: any development build, a production one only with VITE_INSPECTOR=1. */
export const inspectorAllowed = (env: InspectorEnv): boolean => !env.PROD || env.VITE_INSPECTOR === '1';

export async function startInspector(
  search: string,
  { env = import.meta.env, window: target }: { env?: InspectorEnv; window?: Window } = {},
): Promise<Observer<InspectionEvent> | null> {
  if (!inspectorAllowed(env)) return null;
  const flag = new URLSearchParams(search).get('inspect');
  if (flag === null || flag === '0' || flag === 'false') return null;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  // `serialize` replaces the inspector's own copy of each event: ours is as safe to post, and has no secret in it.
  const serialize = <T>(event: T) => redactSecrets(event) as T;
  return createBrowserInspector({ serialize, ...(target ? { window: target } : {}) }).inspect;
}
