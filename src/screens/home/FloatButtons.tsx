/**
 * The home's float buttons (SPEC §2 / floatButtons): Match (a random online host) and Go live,
 * and Back to top once the list has scrolled a few screens. Round, 52 px, labelled.
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { onceAFrame } from '../../ui/onceAFrame';
import { scrollParentOf } from '../../ui/scrollParent';

/** Back to top shows past this many pixels. */
const BACK_TO_TOP_AFTER = 1200;

const reducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export function FloatButtons({ onMatch }: { onMatch: () => void }) {
  const [far, setFar] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scroller = scrollParentOf(box.current);
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
        <button type="button" className="float-button" aria-label="Back to top"
          onClick={() => scrollParentOf(box.current)?.scrollTo({ top: 0, behavior: reducedMotion() ? 'auto' : 'smooth' })}
        >
          <span aria-hidden="true">↑</span>
        </button>
      )}
      <button type="button" className="float-button float-button-match" aria-label="Match" onClick={onMatch}>
        <span aria-hidden="true">⚡</span>
      </button>
      <Link to="/liveSetting" className="float-button float-button-live" aria-label="Go live">
        <span aria-hidden="true">●</span>
      </Link>
    </div>
  );
}
