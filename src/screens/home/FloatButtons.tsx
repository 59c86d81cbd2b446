/**
 * The home's float buttons (SPEC §2 / floatButtons): Match (a random online host) and Go live,
 * and Back to top once the list has scrolled a few screens. They sit at the end of the home's
 * header, each with its words beside its icon: floating over the list, they covered the right
 * column of host cards at 360 px.
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { BoltIcon, UpIcon, VideoIcon } from '../../ui/icons';
import { onceAFrame } from '../../ui/onceAFrame';

/** The home's list: the body of the screen whose header holds the buttons. */
const listOf = (el: Element | null) => el?.closest('.screen')?.querySelector<HTMLElement>('.screen-body') ?? null;

/** Back to top shows past this many pixels. */
const BACK_TO_TOP_AFTER = 1200;

const reducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export function FloatButtons({ onMatch }: { onMatch: () => void }) {
  const [far, setFar] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scroller = listOf(box.current);
    if (!scroller) return;
    const update = onceAFrame(() => setFar(scroller.scrollTop > BACK_TO_TOP_AFTER));
    update();
    scroller.addEventListener('scroll', update, { passive: true });
    return () => {
      update.cancel();
      scroller.removeEventListener('scroll', update);
    };
  }, []);
  return (
    <div ref={box} className="float-buttons">
      {far && (
        <button type="button" className="icon-button float-button-top" aria-label="Back to top"
          onClick={() => listOf(box.current)?.scrollTo({ top: 0, behavior: reducedMotion() ? 'auto' : 'smooth' })}
        >
          <UpIcon />
        </button>
      )}
      <button type="button" className="float-button float-button-match" onClick={onMatch}>
        <BoltIcon /> Match
      </button>
      <Link to="/liveSetting" className="float-button float-button-live">
        <VideoIcon /> Go live
      </Link>
    </div>
  );
}
