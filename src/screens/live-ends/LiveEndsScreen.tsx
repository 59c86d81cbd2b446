import { ScreenFrame } from '../../ui/ScreenFrame';

/** Live ended: the screen frame; its content comes with the issue that owns this screen. */
export default function LiveEndsScreen() {
  return <ScreenFrame title="Live ended" back />;
}
