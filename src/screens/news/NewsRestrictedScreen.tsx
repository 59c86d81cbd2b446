import { NewsView } from './NewsView';

/** /newsRestricted (non-hosts): the same chats, system and station messages. */
export default function NewsRestrictedScreen() {
  return <NewsView />;
}
