/**
 * Idempotent money requests (the rule is src/api/contract/idempotency.ts): `once` runs a
 * handler's work and stores its answer under (user, endpoint, key) in the SAME SQLite
 * transaction as the money it moves, so no crash can leave money moved without its key, or
 * a key without its money. A replay (the key stored, the same body) gets the stored answer
 * and runs nothing; the same key with another body is refused.
 *
 * The work returns its answer and what to do after the commit (IM pushes, chat posts, timers:
 * nobody is told of money that did not move). A refusal it throws undoes everything it did and
 * stores nothing; a refusal it returns (`refusal`) commits what it did (an ended call, never
 * money) and stores nothing either, so a retry is evaluated again.
 *
 * better-sqlite3 is synchronous: the transaction (and a handler's own transactions inside it,
 * which become savepoints) runs to its end before another request is looked at, so two copies
 * of one request never interleave.
 */
import { createHash } from 'node:crypto';
import { ResultCode } from '../../src/api/codes';
import { IDEMPOTENCY_WINDOW_MS, TEXT_IDEMPOTENCY_KEY_REUSED } from '../../src/api/contract/idempotency';
import type { Db } from '../db/database';
import { ApiError, requireSession } from './transport';
import type { AuthSession } from '../auth/sessions';

/** What a handler's work did: an answer to store and send, or a refusal that moved no money. */
export type Moved<T> =
  | { answer: T; after?: () => void }
  | { refusal: ApiError; after?: () => void };

export interface IdempotencyOptions {
  /** How long a stored answer answers replays; default IDEMPOTENCY_WINDOW_MS (24 h). */
  windowMs?: number;
  /** The clock (tests move it past the window). */
  now?: () => number;
}

interface StoredRow {
  fingerprint: string;
  answer: string;
  created_at: number;
}

/** Expired keys are purged at most this often (each purge is one indexed DELETE). */
const PURGE_EVERY_MS = 10 * 60 * 1000;

/** JSON with the keys of every object sorted: equal requests give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The request as the key is bound to it: the body without the key. */
export function fingerprintOf(body: Record<string, unknown>): string {
  const { idempotencyKey: _key, ...rest } = body;
  return createHash('sha256').update(canonical(rest)).digest('hex');
}

export type Idempotency = ReturnType<typeof createIdempotency>;

export function createIdempotency(db: Db, options: IdempotencyOptions = {}) {
  const windowMs = options.windowMs ?? IDEMPOTENCY_WINDOW_MS;
  const now = options.now ?? Date.now;
  const find = db.prepare<{ user: number; endpoint: string; key: string }, StoredRow>(
    'SELECT fingerprint, answer, created_at FROM idempotency_keys WHERE user_id = @user AND endpoint = @endpoint AND key = @key',
  );
  const store = db.prepare<{ user: number; endpoint: string; key: string; fingerprint: string; answer: string; time: number }>(
    `INSERT INTO idempotency_keys (user_id, endpoint, key, fingerprint, answer, created_at)
     VALUES (@user, @endpoint, @key, @fingerprint, @answer, @time)
     ON CONFLICT (user_id, endpoint, key) DO UPDATE SET fingerprint = @fingerprint, answer = @answer, created_at = @time`,
  );
  const purgeBefore = db.prepare<[number]>('DELETE FROM idempotency_keys WHERE created_at <= ?');
  let lastPurge = Number.NEGATIVE_INFINITY;

  type Outcome<T> = { replay: unknown } | Moved<T>;
  const inTransaction = db.transaction((run: () => unknown) => run());

  /** Deletes the keys past the window; the count deleted. */
  function purge(): number {
    lastPurge = now();
    return purgeBefore.run(lastPurge - windowMs).changes;
  }

  return {
    windowMs,
    purge,

    /**
     * Runs `work` once per (caller, endpoint, idempotencyKey): see the file comment. Answers
     * the work's answer, or the stored one for a replay; throws the work's refusal.
     */
    once<T>(
      ctx: { session: AuthSession | null; body: { idempotencyKey: string } },
      endpoint: { path: string },
      work: () => Moved<T>,
    ): T {
      const user = requireSession(ctx).userId;
      const at = { user, endpoint: endpoint.path, key: ctx.body.idempotencyKey };
      const fingerprint = fingerprintOf(ctx.body as unknown as Record<string, unknown>);
      if (now() - lastPurge >= PURGE_EVERY_MS) purge();
      const outcome = inTransaction((): Outcome<T> => {
        const time = now();
        const stored = find.get(at);
        // A key past the window (not purged yet) is a new request's: the row is replaced below.
        if (stored && time - stored.created_at < windowMs) {
          if (stored.fingerprint !== fingerprint) throw new ApiError(ResultCode.invalidRequest, TEXT_IDEMPOTENCY_KEY_REUSED);
          return { replay: JSON.parse(stored.answer) as unknown };
        }
        const moved = work();
        if ('answer' in moved) store.run({ ...at, fingerprint, answer: JSON.stringify(moved.answer), time });
        return moved;
      }) as Outcome<T>;
      if ('replay' in outcome) return outcome.replay as T;
      outcome.after?.();
      if ('refusal' in outcome) throw outcome.refusal;
      return outcome.answer;
    },
  };
}
