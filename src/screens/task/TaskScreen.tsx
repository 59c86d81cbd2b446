import { ScreenFrame } from '../../ui/ScreenFrame';

/** Tasks: the screen frame; its content comes with the issue that owns this screen. */
export default function TaskScreen() {
  return <ScreenFrame title="Tasks" back />;
}
