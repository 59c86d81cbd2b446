/** Loads the NetEase chat-room SDK chunk on demand (SPEC §8: up to 3 attempts). */
import type { ChatroomSdk } from './chatroom.nim';
import { loadWithRetry } from './sdk-load';

export const loadChatroom = (): Promise<ChatroomSdk> => loadWithRetry(() => import('./chatroom.nim.sdk').then((m) => m.default));
