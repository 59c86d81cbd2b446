import { ScreenFrame } from '../../ui/ScreenFrame';

/** Points ranking: the screen frame; its content comes with the issue that owns this screen. */
export default function PointsRankScreen() {
  return <ScreenFrame title="Points ranking" back />;
}
