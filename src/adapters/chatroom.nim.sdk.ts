/**
 * The only module that imports the NetEase chat-room SDK's code. It is reached solely through
 * the dynamic `import()` in chatroom.nim.load.ts, so the SDK lands in its own lazy chunk.
 */
import V2NIMChatroomClient from 'nim-web-sdk-ng/dist/v2/CHATROOM_BROWSER_SDK';
import type { ChatroomSdk } from './chatroom.nim';
import { interopDefault } from './sdk-load';

// `satisfies`: the real SDK must keep fitting the surface the adapter and the doubles use.
const sdk = interopDefault(V2NIMChatroomClient satisfies ChatroomSdk, (v) => typeof v === 'function' && 'newInstance' in v);

export default sdk as ChatroomSdk;
