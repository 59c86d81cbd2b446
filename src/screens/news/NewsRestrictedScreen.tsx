import { ScreenFrame } from '../../ui/ScreenFrame';

/** News: the screen frame; its content comes with the issue that owns this screen. */
export default function NewsRestrictedScreen() {
  return <ScreenFrame title="News" />;
}
