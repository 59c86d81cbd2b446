import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectProfile } from '../../../machines/app/app.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { ScreenFrame } from '../../ui/ScreenFrame';

/** Shortcuts of the host's home (SPEC §2 "/" float buttons); the host lists join them with their issue. */
const SHORTCUTS = [
  { to: '/liveSetting', label: 'Go live', icon: '●' },
  { to: '/beautySettings', label: 'Beauty', icon: '✦' },
  { to: '/task', label: 'Tasks', icon: '✓' },
  { to: '/dailyTask', label: 'Daily tasks', icon: '☀' },
  { to: '/dataStatistics', label: 'Statistics', icon: '▤' },
  { to: '/invite', label: 'Invite', icon: '✉' },
  { to: '/pointsRank', label: 'Points', icon: '★' },
  { to: '/rank', label: 'Ranking', icon: '♛' },
  { to: '/wallet', label: 'Wallet', icon: '◈' },
  { to: '/followList', label: 'Follows', icon: '♥' },
  { to: '/news', label: 'Messages', icon: '✆' },
  { to: '/settings', label: 'Settings', icon: '⚙' },
] as const;

export default function HomeScreen() {
  const profile = useSelector(useAppActor(), selectProfile);
  return (
    <ScreenFrame title="Home">
      {profile && <p className="home-greeting">Hello, {profile.nickname}</p>}
      <ul className="shortcut-grid" aria-label="Shortcuts">
        {SHORTCUTS.map((s) => (
          <li key={s.to}>
            <Link to={s.to} className="shortcut">
              <span className="shortcut-icon" aria-hidden="true">{s.icon}</span>
              <span>{s.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </ScreenFrame>
  );
}
