/**
 * The home banners (SPEC §7 getAppPicByType, type 1): a row that scrolls sideways and snaps,
 * each banner a link to its app route or, for an https page, to /iframePage. Its height is
 * fixed before the banners arrive, so the list under it never jumps. A banner's title names its link.
 */
import { Link } from '@tanstack/react-router';
import type { Banner } from '../../../machines/home-list/home-list.port';

/** An app route ('/invite') as it is; an https page through /iframePage; anything else goes nowhere. */
export function bannerTarget(linkUrl: string | null): { to: string; search?: Record<string, string> } | null {
  if (!linkUrl) return null;
  if (/^\/(?!\/)/.test(linkUrl)) return { to: linkUrl };
  if (/^https:\/\//i.test(linkUrl)) return { to: '/iframePage', search: { url: linkUrl } };
  return null;
}

export function Banners({ banners, pending }: { banners: readonly Banner[]; pending: boolean }) {
  if (!pending && banners.length === 0) return null;
  return (
    <section className="home-banners" aria-label="Banners">
      <ul className="home-banner-row">
        {banners.map((banner, i) => {
          const target = bannerTarget(banner.linkUrl);
          const picture = (
            <img
              className="home-banner-img"
              src={banner.picUrl}
              alt={target ? '' : banner.title}
              width={750}
              height={300}
              loading={i === 0 ? 'eager' : 'lazy'}
              fetchPriority={i === 0 ? 'high' : 'auto'}
              decoding="async"
            />
          );
          return (
            <li key={banner.id} className="home-banner">
              {target
                ? <Link to={target.to} search={target.search} className="home-banner-link" aria-label={banner.title}>{picture}</Link>
                : picture}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
