/**
 * The tokens port's contract (SPEC §7 getAgoraRtmToken; §8 message-service codes -10005 and
 * -10026 refresh the token), run against the in-memory fake (tokens.fake.test.ts) and the
 * production adapters over the reference server (src/adapters/http/lookups.http.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { perTest, rejectionOf } from './contract.support';
import type { TokensPort } from './tokens.port';

export interface TokensContractRig {
  /** The port of a signed-in person, whose IM account is `account`. */
  port: TokensPort;
  account: string;
  /** Another person's IM account. */
  otherAccount: string;
  /** Whether the signalling service logs `account` in with `token`. */
  rtmAccepted(account: string, token: string): boolean | Promise<boolean>;
  /** Whether the IM service logs `account` in with `token`. */
  imAccepted(account: string, token: string): boolean | Promise<boolean>;
  /** A port without a session (signed out). */
  signedOutPort(): TokensPort;
  dispose(): void | Promise<void>;
}

export type TokensRigFactory = () => TokensContractRig | Promise<TokensContractRig>;

export function registerTokensContract(name: string, factory: TokensRigFactory): void {
  describe(`[contract] tokens port: ${name}`, () => {
    const t = perTest(factory);

    it('[§7 getAgoraRtmToken] rtm answers a token the signalling login accepts for the person, and for nobody else', async () => {
      const token = await t.rig.port.rtm();
      expect(token).toMatch(/\S{8,}/);
      expect(await t.rig.rtmAccepted(t.rig.account, token)).toBe(true);
      expect(await t.rig.rtmAccepted(t.rig.otherAccount, token)).toBe(false);
    });

    it('asks the server at every call (tokens expire): each answer is a new token, accepted', async () => {
      const first = await t.rig.port.rtm();
      const second = await t.rig.port.rtm();
      expect(second).not.toBe(first);
      expect(await t.rig.rtmAccepted(t.rig.account, second)).toBe(true);
    });

    it('[§8 -10005/-10026 refresh the token] refreshIm answers a token the IM login accepts for the person', async () => {
      const token = await t.rig.port.refreshIm();
      expect(await t.rig.imAccepted(t.rig.account, token)).toBe(true);
      expect(await t.rig.imAccepted(t.rig.otherAccount, token)).toBe(false);
    });

    it('refuses both tokens without a session', async () => {
      const port = t.rig.signedOutPort();
      expect(await rejectionOf(port.rtm())).toBeInstanceOf(Error);
      expect(await rejectionOf(port.refreshIm())).toBeInstanceOf(Error);
    });
  });
}
