/**
 * A bottom sheet with a title and a close button (the live room's audience, send rank and the
 * like): a labelled modal dialog on antd-mobile's Popup, which follows prefers-reduced-motion
 * (ui/antd.ts). Its content is mounted only while open.
 */
import { useId } from 'react';
import type { ReactNode } from 'react';
import { Popup } from './antd';
import { CloseIcon } from './icons';
import './live-parts.css';

export function Sheet({
  title, open, onClose, children,
}: { title: string; open: boolean; onClose: () => void; children: ReactNode }) {
  const titleId = useId();
  return (
    <Popup visible={open} onMaskClick={onClose} onClose={onClose} getContainer={null} destroyOnClose bodyClassName="sheet-popup">
      {/* A modal dialog closes on Escape too. */}
      <section
        role="dialog" aria-modal="true" aria-labelledby={titleId} className="sheet"
        onKeyDown={(e) => { if (e.key === 'Escape') { e.stopPropagation(); onClose(); } }}
      >
        <header className="sheet-head">
          <h2 id={titleId} className="sheet-title">{title}</h2>
          <button type="button" className="icon-button" aria-label="Close" autoFocus onClick={onClose}><CloseIcon /></button>
        </header>
        {children}
      </section>
    </Popup>
  );
}
