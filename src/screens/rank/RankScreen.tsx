import { ScreenFrame } from '../../ui/ScreenFrame';

/** Ranking: the screen frame; its content comes with the issue that owns this screen. */
export default function RankScreen() {
  return <ScreenFrame title="Ranking" back />;
}
