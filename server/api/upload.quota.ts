/**
 * How much one person may upload (src/api/contract/media.ts): files and bytes stored per UTC
 * day, kept in `upload_quota` so that a restart does not reset them, and the uploads in
 * progress, kept in memory (a restart ends them anyway).
 *
 * An upload first takes a reservation: one of the person's in-flight places and, out of what
 * today still allows, as many bytes as it may grow to (its declared length, or the type's limit
 * for a body of unknown length). Reservations count against the quota
 * together with what is stored, so uploads running side by side cannot jointly go over it.
 * A stored file turns its reservation into its real size in the day's row; a refused or broken
 * one just gives the reservation back.
 */
import type { Db } from '../db/database';

export interface UploadLimits {
  /** Uploads one person may have in progress at once. */
  inFlight: number;
  /** Files one person may store per UTC day. */
  dailyFiles: number;
  /** Bytes one person may store per UTC day. */
  dailyBytes: number;
}

/** The limits to apply (each defaults to the contract's), and the clock that says which day it is (tests move it). */
export interface UploadQuotaOptions extends Partial<UploadLimits> {
  now?: () => number;
}

export type Reservation =
  | { ok: true; bytes: number; release(): void; commit(size: number): void }
  | { ok: false; reason: 'busy' | 'quota' };

interface Pending {
  files: number;
  bytes: number;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function createUploadQuota(db: Db, limits: UploadLimits, now: () => number = Date.now) {
  const used = db.prepare<[number, string], Pending>('SELECT files, bytes FROM upload_quota WHERE user_id = ? AND day = ?');
  const add = db.prepare(
    `INSERT INTO upload_quota (user_id, day, files, bytes) VALUES (@user, @day, 1, @size)
     ON CONFLICT (user_id, day) DO UPDATE SET files = files + 1, bytes = bytes + @size`,
  );
  const forget = db.prepare('DELETE FROM upload_quota WHERE day < ?');
  const pending = new Map<number, Pending>();
  forget.run(dayOf(now()));

  return {
    /** A reservation for an upload of at most `maxBytes`, or why there is none. */
    reserve(userId: number, maxBytes: number): Reservation {
      const mine = pending.get(userId) ?? { files: 0, bytes: 0 };
      if (mine.files >= limits.inFlight) return { ok: false, reason: 'busy' };
      const day = dayOf(now());
      const stored = used.get(userId, day) ?? { files: 0, bytes: 0 };
      const bytesLeft = limits.dailyBytes - stored.bytes - mine.bytes;
      if (stored.files + mine.files >= limits.dailyFiles || bytesLeft <= 0) return { ok: false, reason: 'quota' };
      const bytes = Math.min(maxBytes, bytesLeft);
      pending.set(userId, { files: mine.files + 1, bytes: mine.bytes + bytes });
      let open = true;
      const release = () => {
        if (!open) return;
        open = false;
        const now = pending.get(userId)!;
        if (now.files === 1) pending.delete(userId);
        else pending.set(userId, { files: now.files - 1, bytes: now.bytes - bytes });
      };
      return {
        ok: true,
        bytes,
        release,
        commit(size: number) {
          // Counted on the day the upload began, so a reservation taken before midnight is settled where it was checked.
          db.transaction(() => {
            forget.run(day);
            add.run({ user: userId, day, size });
          })();
          release();
        },
      };
    },
  };
}

export type UploadQuota = ReturnType<typeof createUploadQuota>;
