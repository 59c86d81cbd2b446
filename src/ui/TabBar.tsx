/**
 * The tab bars of SPEC §2. Items are real links (focusable, announced with their label):
 * antd-mobile's TabBar renders unfocusable divs, and the first screen stays free of the
 * component library (its shared code would pull the animation library into the entry).
 */
import { Link } from '@tanstack/react-router';
import { NORMAL_TAB_PATHS, RESTRICTED_TAB_PATHS } from '../../machines/app/app.paths';
import type { AppMode } from '../../machines/app/app.paths';

export interface TabItem {
  path: string;
  label: string;
  image: string;
  activeImage: string;
  /** Shows the unread-count badge. */
  badge?: boolean;
}

const item = (path: string, label: string, icon: string, badge = false): TabItem => ({
  path, label, image: `/tab/${icon}.svg`, activeImage: `/tab/${icon}-active.svg`, badge,
});

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
                <img src={active ? tab.activeImage : tab.image} alt="" width={24} height={24} />
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
