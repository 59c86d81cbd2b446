/**
 * The chat port's contract (SPEC §7 blockUser / removeBlockUser, uploadPrivateInfo,
 * privateInfo with pay and its idempotency key; §8 1080), run against the in-memory fake
 * (chat.fake.test.ts) and the HTTP adapter over the reference server
 * (src/adapters/http/chat.http.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { randomIntentKey, UnansweredError } from '../shared/intent-key';
import { perTest, rejectionOf } from './contract.support';
import { TEXT_SECRET_NOT_ENOUGH_DIAMONDS } from './chat.port';
import type { ChatApiPort } from './chat.port';

export interface ChatContractRig {
  /** A host's port (hosts may send secret messages), and the host's IM account. */
  host: ChatApiPort;
  hostAccount: string;
  /** The port of a person with diamonds enough for `price`, and their IM account. */
  payer: ChatApiPort;
  payerAccount: string;
  /** The port of a person without diamonds, and their IM account. */
  broke: ChatApiPort;
  brokeAccount: string;
  /** An IM account nobody has. */
  unknownAccount: string;
  /** Whether the payer sees `peer` as blocked, looked up as the chats look it up. */
  payerBlocks(peer: string): Promise<boolean>;
  /** The payer's next request is carried out, but its answer is lost on the way back. */
  loseNextAnswerToPayer(): void;
  dispose(): void | Promise<void>;
}

export type ChatRigFactory = () => ChatContractRig | Promise<ChatContractRig>;

const price = 30;
const content = 'Only for you 🌙';

export function registerChatContract(name: string, factory: ChatRigFactory): void {
  describe(`[contract] chat port: ${name}`, () => {
    const t = perTest(factory);

    /** A secret the host sends to `to`, and its id. */
    async function storedFor(to: string): Promise<number> {
      const ext = await t.rig.host.storeSecret({ to, price, content });
      expect(ext).toMatchObject({ extensionType: 'privateMsg', data: { price } });
      return (ext as { data: { id: number } }).data.id;
    }

    it('[§7 blockUser, removeBlockUser] a blocked peer looks blocked on the next lookup, an unblocked one not', async () => {
      await t.rig.payer.setBlocked(t.rig.hostAccount, true);
      expect(await t.rig.payerBlocks(t.rig.hostAccount)).toBe(true);
      await t.rig.payer.setBlocked(t.rig.hostAccount, false);
      expect(await t.rig.payerBlocks(t.rig.hostAccount)).toBe(false);
    });

    it('refuses to block an account nobody has', async () => {
      const error = await rejectionOf(t.rig.payer.setBlocked(t.rig.unknownAccount, true));
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(UnansweredError);
    });

    it('[§7 uploadPrivateInfo, privateInfo] a stored secret is locked to its recipient, with its price and their diamonds, and whole to its sender', async () => {
      const id = await storedFor(t.rig.payerAccount);
      const seen = await t.rig.payer.openSecret(id);
      expect(seen).toMatchObject({ id, price, unlocked: false, content: null, mediaList: [] });
      expect(seen.balance).toBeGreaterThanOrEqual(price);
      expect(await t.rig.host.openSecret(id)).toMatchObject({ id, price, unlocked: true, content });
    });

    it('[§7 privateInfo pay, idempotencyKey] a payment unlocks it and charges once: the same payment again answers the same, and later looks stay open', async () => {
      const id = await storedFor(t.rig.payerAccount);
      const before = (await t.rig.payer.openSecret(id)).balance;
      const payment = { idempotencyKey: randomIntentKey() };
      const paid = await t.rig.payer.openSecret(id, payment);
      expect(paid).toMatchObject({ id, unlocked: true, content, balance: before - price });
      expect(await t.rig.payer.openSecret(id, payment)).toEqual(paid);
      expect(await t.rig.payer.openSecret(id, { idempotencyKey: randomIntentKey() })).toMatchObject({ unlocked: true, balance: before - price });
      expect(await t.rig.payer.openSecret(id)).toMatchObject({ unlocked: true, content, balance: before - price });
    });

    it('[§8 1080] a payment short of diamonds says so in words, takes nothing and leaves it locked', async () => {
      const id = await storedFor(t.rig.brokeAccount);
      const before = (await t.rig.broke.openSecret(id)).balance;
      expect(before).toBeLessThan(price);
      const error = await rejectionOf(t.rig.broke.openSecret(id, { idempotencyKey: randomIntentKey() }));
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(UnansweredError);
      expect((error as Error).message).toBe(TEXT_SECRET_NOT_ENOUGH_DIAMONDS);
      expect(await t.rig.broke.openSecret(id)).toMatchObject({ unlocked: false, content: null, balance: before });
    });

    it('a payment whose answer was lost rejects with UnansweredError; paid again under its key, it is open and was charged once', async () => {
      const id = await storedFor(t.rig.payerAccount);
      const before = (await t.rig.payer.openSecret(id)).balance;
      const payment = { idempotencyKey: randomIntentKey() };
      t.rig.loseNextAnswerToPayer();
      expect(await rejectionOf(t.rig.payer.openSecret(id, payment))).toBeInstanceOf(UnansweredError);
      expect(await t.rig.payer.openSecret(id, payment)).toMatchObject({ unlocked: true, content, balance: before - price });
    });
  });
}
