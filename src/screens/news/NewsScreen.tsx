import { NewsView } from './NewsView';

/** /news (hosts): chats, system and station messages. */
export default function NewsScreen() {
  return <NewsView />;
}
