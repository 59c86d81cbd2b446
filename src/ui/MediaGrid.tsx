/**
 * A person's pictures and videos (SPEC §3 picList: mediaType 1 picture, 2 video) as a grid of
 * square tiles. Uploaded videos play in place (controls, nothing loads before asked); a video
 * that is a placeholder picture shows as a tile marked as a video. With `onRemove`, each tile
 * has a labelled Remove button.
 */
import './media-grid.css';
import { CloseIcon } from './icons';
import PlayOutline from 'antd-mobile-icons/es/PlayOutline';

export interface MediaItem {
  mediaType: 1 | 2;
  mediaUrl: string;
}

const PLAYABLE = /\.(mp4|webm)(\?|$)/i;

interface MediaGridProps {
  items: readonly MediaItem[];
  /** Whose media, for the labels. */
  owner: string;
  onRemove?: (index: number) => void;
  disabled?: boolean;
}

export function MediaGrid({ items, owner, onRemove, disabled = false }: MediaGridProps) {
  let pictures = 0;
  let videos = 0;
  return (
    <ul className="media-grid" aria-label={`Photos and videos of ${owner}`}>
      {items.map((item, index) => {
        const label = item.mediaType === 2 ? `Video ${++videos}` : `Photo ${++pictures}`;
        return (
          <li key={`${index}:${item.mediaUrl}`} className="media-tile" data-media-type={item.mediaType}>
            {item.mediaType === 2 && PLAYABLE.test(item.mediaUrl) ? (
              <video className="media-content" src={item.mediaUrl} controls preload="none" playsInline aria-label={label} />
            ) : (
              <img className="media-content" src={item.mediaUrl} alt={label} loading="lazy" decoding="async" />
            )}
            {item.mediaType === 2 && !PLAYABLE.test(item.mediaUrl) && <span className="media-video-mark" aria-hidden="true"><PlayOutline aria-hidden /></span>}
            {onRemove && (
              <button type="button" className="media-remove" aria-label={`Remove ${label.toLowerCase()}`} disabled={disabled} onClick={() => onRemove(index)}>
                <CloseIcon />
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
