/** The wallet's tabs (a user's and a host's lists differ) and the panel of the one chosen. */
import type { ReactNode } from 'react';
import { TabStrip } from '../../ui/TabStrip';

export function WalletTabs<K extends string>({ tabs, selected, onSelect, children }: {
  tabs: readonly { key: K; label: string }[];
  selected: K;
  onSelect: (key: K) => void;
  children: ReactNode;
}) {
  return (
    <>
      <TabStrip label="Wallet" className="wallet-tabs" selected={selected}>
        {tabs.map((t) => (
          <button
            key={t.key} type="button" role="tab" className="tab wallet-tab" aria-selected={selected === t.key}
            id={`wallet-tab-${t.key}`} aria-controls={`wallet-panel-${t.key}`} onClick={() => onSelect(t.key)}
          >
            {t.label}
          </button>
        ))}
      </TabStrip>
      <div role="tabpanel" id={`wallet-panel-${selected}`} aria-labelledby={`wallet-tab-${selected}`} className="wallet-panel">
        {children}
      </div>
    </>
  );
}
