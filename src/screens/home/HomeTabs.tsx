/**
 * The tab strip of the home (SPEC §2 Home: tabs from the server, Live and All) with the
 * country filter and a refresh button (the pull's equivalent for a keyboard or a mouse). Real
 * tab buttons (arrow keys move between them) in a strip that says when it scrolls, a native
 * select for the country.
 */
import type { KeyboardEvent, ReactNode } from 'react';
import type { Country } from '../../../machines/home-list/home-list.port';
import type { HomeTabDef } from '../../../machines/home-list/home-tab.machine';
import { TabStrip } from '../../ui/TabStrip';

interface HomeTabsProps {
  /** What goes above the tools (the banners). */
  head?: ReactNode;
  tabs: readonly HomeTabDef[];
  active: string;
  idOf: (key: string) => { tab: string; panel: string };
  onSelect: (key: string) => void;
  countries: readonly Country[];
  countryIds: readonly number[];
  onCountries: (ids: number[]) => void;
  onRefresh: () => void;
}

export function HomeTabs({ head, tabs, active, idOf, onSelect, countries, countryIds, onCountries, onRefresh }: HomeTabsProps) {
  const move = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const at = tabs.findIndex((t) => t.key === active);
    const next = tabs[(at + step + tabs.length) % tabs.length];
    if (!next) return;
    onSelect(next.key);
    // The strip brings the tab into view (TabStrip), clear of its chevrons.
    document.getElementById(idOf(next.key).tab)?.focus({ preventScroll: true });
  };
  return (
    <>
      <div className="home-head">
        {head}
        <div className="home-tools">
          {countries.length > 0 && (
            <select
              className="home-country"
              aria-label="Country"
              value={countryIds[0] ?? ''}
              onChange={(e) => onCountries(e.target.value ? [Number(e.target.value)] : [])}
            >
              <option value="">All countries</option>
              {countries.map((c) => <option key={c.countryId} value={c.countryId}>{c.countryName}</option>)}
            </select>
          )}
          <button type="button" className="icon-button home-refresh" aria-label="Refresh list" onClick={onRefresh}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path d="M20 12a8 8 0 1 1-2.34-5.66M20 4v5h-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      </div>
      {/* Sticks to the top of the home while its list scrolls. */}
      <TabStrip label="Host lists" className="home-tablist" selected={active} onKeyDown={move}>
        {tabs.map((tab) => {
          const selected = tab.key === active;
          const ids = idOf(tab.key);
          return (
            <button
              key={tab.key}
              id={ids.tab}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={ids.panel}
              tabIndex={selected ? 0 : -1}
              className="home-tab"
              onClick={() => onSelect(tab.key)}
            >
              {tab.label}
            </button>
          );
        })}
      </TabStrip>
    </>
  );
}
