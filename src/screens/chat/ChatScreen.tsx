import { ScreenFrame } from '../../ui/ScreenFrame';

/** Chat: the screen frame; its content comes with the issue that owns this screen. */
export default function ChatScreen() {
  return <ScreenFrame title="Chat" back />;
}
