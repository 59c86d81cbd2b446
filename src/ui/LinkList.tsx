import { Link } from '@tanstack/react-router';

export interface LinkListItem {
  to: string;
  label: string;
}

/** A list of navigation rows, each a real link with a 44 px touch target. */
export function LinkList({ label, items }: { label: string; items: readonly LinkListItem[] }) {
  return (
    <nav aria-label={label}>
      <ul className="link-list">
        {items.map((item) => (
          <li key={item.to}>
            <Link to={item.to} className="link-row">{item.label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
