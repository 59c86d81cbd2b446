import { ScreenFrame } from '../../ui/ScreenFrame';

/** Circle: the screen frame; its content comes with the issue that owns this screen. */
export default function CircleScreen() {
  return <ScreenFrame title="Circle" />;
}
