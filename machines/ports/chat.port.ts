/**
 * A chat's requests beside IM (SPEC §7 blockUser / removeBlockUser, uploadPrivateInfo,
 * privateInfo): blocking a peer, storing and opening secret (paid) messages.
 */

/** A secret message as the one asking may see it. */
export interface SecretInfo {
  id: number;
  price: number;
  unlocked: boolean;
  content: string | null;
  mediaList: readonly { mediaType: 1 | 2; mediaUrl: string }[];
  /** The asker's diamonds (after paying, when this answered a payment). */
  balance: number;
}

export interface ChatApiPort {
  setBlocked(peer: string, blocked: boolean): Promise<void>;
  /** Stores a secret message for `to`; answers the ext to send with it. */
  storeSecret(secret: { to: string; price: number; content: string }): Promise<Record<string, unknown>>;
  /**
   * The secret message as this person may see it; with a `payment`, pays for it first (once),
   * under the payment's idempotency key (machines/shared/intent-key.ts). Rejects with
   * UnansweredError when no answer came.
   */
  openSecret(id: number, payment?: { idempotencyKey: string }): Promise<SecretInfo>;
}

/** An unlock refused for want of diamonds (SPEC §8 1080) rejects with an Error of these words. */
export { TEXT_NOT_ENOUGH_DIAMONDS as TEXT_SECRET_NOT_ENOUGH_DIAMONDS } from './gift.port';
