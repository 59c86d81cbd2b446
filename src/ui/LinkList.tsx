import { Link } from '@tanstack/react-router';

export interface LinkListItem {
  to: string;
  label: string;
  /** A place on the page (an element's id) to open at. */
  hash?: string;
}

/** A list of navigation rows, each a real link with a 44 px touch target. */
export function LinkList({ label, items }: { label: string; items: readonly LinkListItem[] }) {
  return (
    <nav aria-label={label}>
      <ul className="link-list">
        {items.map((item) => (
          <li key={item.hash ? `${item.to}#${item.hash}` : item.to}>
            <Link to={item.to} hash={item.hash} className="link-row">{item.label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
