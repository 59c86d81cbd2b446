/** The chats a person pinned (SPEC §6: VIP members may pin), kept on the device per account. */
export interface PinsPort {
  load(account: string): readonly string[];
  save(account: string, ids: readonly string[]): void;
}
