import { ScreenFrame } from '../../ui/ScreenFrame';

/** Live room: the screen frame; its content comes with the issue that owns this screen. */
export default function LiveRoomScreen() {
  return <ScreenFrame title="Live room" back />;
}
