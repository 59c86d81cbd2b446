/**
 * The three `*.load.ts` modules reach their SDK only through a dynamic import of the matching
 * `*.sdk.ts` module. Here those modules are replaced by in-memory doubles, so no SDK code runs.
 */
import { describe, expect, it, vi } from 'vitest';
import { ChatroomCloud, ChatroomDoubleSdk } from './doubles/chatroom.double';
import { NimCloud, NimDoubleSdk } from './doubles/nim.double';
import { RtmCloud, RtmDoubleSdk } from './doubles/rtm.double';

const sdks = vi.hoisted(() => ({} as { nim?: unknown; chatroom?: unknown; rtm?: unknown }));

vi.mock('./im.nim.sdk', () => ({ default: sdks.nim }));
vi.mock('./chatroom.nim.sdk', () => ({ default: sdks.chatroom }));
vi.mock('./signalling.rtm.sdk', () => ({ default: sdks.rtm }));

sdks.nim = new NimDoubleSdk(new NimCloud());
sdks.chatroom = new ChatroomDoubleSdk(new ChatroomCloud());
sdks.rtm = new RtmDoubleSdk(new RtmCloud());

describe('SDK chunk loaders', () => {
  it('loadNim, loadChatroom and loadRtm resolve to the default export of their SDK module', async () => {
    const { loadNim } = await import('./im.nim.load');
    const { loadChatroom } = await import('./chatroom.nim.load');
    const { loadRtm } = await import('./signalling.rtm.load');
    await expect(loadNim()).resolves.toBe(sdks.nim);
    await expect(loadChatroom()).resolves.toBe(sdks.chatroom);
    await expect(loadRtm()).resolves.toBe(sdks.rtm);
  });
});
