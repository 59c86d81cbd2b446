/** The error both NetEase V2 SDK bundles (IM and chat room) throw, as their doubles throw it. */
import type { V2NIMError as ChatroomV2Error } from 'nim-web-sdk-ng/dist/v2/CHATROOM_BROWSER_SDK/types';
import type { V2NIMError as NimV2Error } from 'nim-web-sdk-ng/dist/v2/NIM_BROWSER_SDK/types';

export class V2ErrorDouble extends Error implements NimV2Error, ChatroomV2Error {
  override name = 'V2NIMError';
  readonly desc: string;
  readonly detail: NimV2Error['detail'] & ChatroomV2Error['detail'] = {};
  constructor(readonly code: number, desc = `error ${code}`) {
    super(desc);
    this.desc = desc;
  }
}
