import { ScreenFrame } from '../../ui/ScreenFrame';

/** Data statistics: the screen frame; its content comes with the issue that owns this screen. */
export default function DataStatisticsScreen() {
  return <ScreenFrame title="Data statistics" back />;
}
