/**
 * The tab bars of SPEC §2. Items are real links (focusable, announced with their label):
 * antd-mobile's TabBar renders unfocusable divs, and the first screen stays free of the
 * component library (its shared code would pull the animation library into the entry).
 * The icons are drawn inline: as pictures each was a request and a document of its own in the
 * first seconds, and a new picture on every tab change.
 */
import { Link } from '@tanstack/react-router';
import { NORMAL_TAB_PATHS, RESTRICTED_TAB_PATHS } from '../../machines/app/app.paths';
import type { AppMode } from '../../machines/app/app.paths';
import type { ReactNode } from 'react';

type TabIconName = 'list' | 'news' | 'circle' | 'mine';

/** The shapes of the tab icons on a 24 × 24 grid, in the tab's icon colour. */
const ICON_SHAPES: Record<TabIconName, ReactNode> = {
  list: (
    <>
      <rect x="4" y="5" width="16" height="3" rx="1.5" />
      <rect x="4" y="10.5" width="16" height="3" rx="1.5" />
      <rect x="4" y="16" width="16" height="3" rx="1.5" />
    </>
  ),
  news: <path d="M4 5h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9l-4 3v-3H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z" />,
  circle: (
    <>
      <circle cx="12" cy="12" r="8" />
      <circle cx="12" cy="12" r="3" fill="#fff" />
    </>
  ),
  mine: (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 20c0-4 3.6-6 8-6s8 2 8 6z" />
    </>
  ),
};

export interface TabItem {
  path: string;
  label: string;
  icon: TabIconName;
  /** Shows the unread-count badge. */
  badge?: boolean;
}

const item = (path: string, label: string, icon: TabIconName, badge = false): TabItem => ({ path, label, icon, badge });

export const TAB_ITEMS: Record<AppMode, readonly TabItem[]> = {
  host: [item('/', 'List', 'list'), item('/news', 'News', 'news', true), item('/circle', 'Circle', 'circle'), item('/mine', 'Mine', 'mine')],
  restricted: [item('/newsRestricted', 'News', 'news', true), item('/mineRestricted', 'Mine', 'mine')],
};

/** The six root paths of SPEC §2, the only ones with a tab bar. */
export const isTabRoot = (path: string): boolean =>
  NORMAL_TAB_PATHS.includes(path) || RESTRICTED_TAB_PATHS.includes(path);

export function TabBar({ mode, pathname, unread }: { mode: AppMode; pathname: string; unread: number }) {
  return (
    <nav className="tab-bar" aria-label="Main">
      <div className="tab-bar-items">
        {TAB_ITEMS[mode].map((tab) => {
          const active = tab.path === pathname;
          const count = tab.badge && unread > 0 ? (unread > 99 ? '99+' : String(unread)) : null;
          return (
            <Link
              key={tab.path}
              to={tab.path}
              className={active ? 'tab tab-active' : 'tab'}
              aria-current={active ? 'page' : undefined}
              aria-label={count ? `${tab.label}, ${count} unread` : tab.label}
              data-testid={`tab-${tab.label.toLowerCase()}`}
            >
              <span className="tab-icon">
                <svg className="tab-svg" viewBox="0 0 24 24" width={24} height={24} fill="currentColor" aria-hidden="true" focusable="false">
                  {ICON_SHAPES[tab.icon]}
                </svg>
                {count && <span className="tab-badge" aria-hidden="true" data-testid="unread-badge">{count}</span>}
              </span>
              <span className="tab-label">{tab.label}</span>
            </Link>
          );
        })}
      </div>
    </nav>
  );
}
