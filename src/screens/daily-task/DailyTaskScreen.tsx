import { ScreenFrame } from '../../ui/ScreenFrame';

/** Daily tasks: the screen frame; its content comes with the issue that owns this screen. */
export default function DailyTaskScreen() {
  return <ScreenFrame title="Daily tasks" back />;
}
