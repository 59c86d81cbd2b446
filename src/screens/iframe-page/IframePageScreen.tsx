import { ScreenFrame } from '../../ui/ScreenFrame';

/** Web page: the screen frame; its content comes with the issue that owns this screen. */
export default function IframePageScreen() {
  return <ScreenFrame title="Web page" back />;
}
