import { ScreenFrame } from '../../ui/ScreenFrame';

/** Customer service: the screen frame; its content comes with the issue that owns this screen. */
export default function CustomerTalkScreen() {
  return <ScreenFrame title="Customer service" back />;
}
