import { describe, expect, it } from 'vitest';
import { NORMAL_TAB_PATHS, RESTRICTED_TAB_PATHS } from '../../machines/app/app.paths';
import { TAB_ITEMS, isTabRoot } from './TabBar';

describe('[§2 Tab bars]', () => {
  it('lists exactly the tab roots the root actor routes by, in order', () => {
    expect(TAB_ITEMS.host.map((t) => t.path)).toEqual(NORMAL_TAB_PATHS);
    expect(TAB_ITEMS.restricted.map((t) => t.path)).toEqual(RESTRICTED_TAB_PATHS);
    expect(TAB_ITEMS.host.map((t) => t.label)).toEqual(['List', 'News', 'Circle', 'Mine']);
  });

  it('shows only on the six root paths', () => {
    expect(['/', '/news', '/circle', '/mine', '/newsRestricted', '/mineRestricted'].every(isTabRoot)).toBe(true);
    expect(['/wallet', '/talk', '/login', '/news/x'].some(isTabRoot)).toBe(false);
  });
});
