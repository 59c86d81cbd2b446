import { ScreenFrame } from '../../ui/ScreenFrame';

/** Video recorder: the screen frame; its content comes with the issue that owns this screen. */
export default function VideoRecorderScreen() {
  return <ScreenFrame title="Video recorder" back />;
}
