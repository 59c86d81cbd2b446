/**
 * Blocking between app users (the `user_blocks` table). The IM hub refuses a message from
 * a blocked sender with 7101 (SPEC §8). The app's block endpoints (/api/user/blockUser,
 * removeBlockUser) are meant to call `block` / `unblock`; until they exist, tests do.
 */
import type { Db } from '../db/database';

export type Blocks = ReturnType<typeof createBlocks>;

export function createBlocks(db: Db) {
  const insert = db.prepare(
    'INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const remove = db.prepare('DELETE FROM user_blocks WHERE blocker_id = ? AND blocked_id = ?');
  const byAccid = db.prepare<[string, string], 1>(
    `SELECT 1 FROM user_blocks b
       JOIN users blocker ON blocker.id = b.blocker_id
       JOIN users blocked ON blocked.id = b.blocked_id
      WHERE blocker.yx_accid = ? AND blocked.yx_accid = ?`,
  ).pluck();
  const idOf = db.prepare<[string], number>('SELECT id FROM users WHERE yx_accid = ?').pluck();

  return {
    /** `blockerId` refuses messages from `blockedId` from now on. */
    block(blockerId: number, blockedId: number): void {
      insert.run(blockerId, blockedId, new Date().toISOString());
    },
    unblock(blockerId: number, blockedId: number): void {
      remove.run(blockerId, blockedId);
    },
    /** The same by IM account (tests and tools speak yxAccid). */
    blockAccid(blocker: string, blocked: string): void {
      const a = idOf.get(blocker);
      const b = idOf.get(blocked);
      if (a === undefined || b === undefined) throw new Error(`No app user for ${a === undefined ? blocker : blocked}.`);
      insert.run(a, b, new Date().toISOString());
    },
    /** Whether the account `blocker` blocked the account `sender`. */
    blocks: (blocker: string, sender: string): boolean => byAccid.get(blocker, sender) === 1,
  };
}
