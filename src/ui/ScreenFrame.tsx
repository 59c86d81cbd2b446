/**
 * The frame every screen sits in: a header with the title, off the tab roots a back button,
 * and the screen's own actions at its end (they never cover the body's content); a body that
 * scrolls on its own and keeps its scroll position while a cached view
 * is hidden (the position is restored when the view shows again).
 */
import { useCanGoBack, useRouter } from '@tanstack/react-router';
import { useId, useLayoutEffect, useRef } from 'react';
import type { ReactNode } from 'react';

interface ScreenFrameProps {
  title: string;
  back?: boolean;
  /** An extra class on the frame, for a screen's own layout of the body. */
  className?: string;
  /** Buttons at the header's end. */
  actions?: ReactNode;
  children?: ReactNode;
}

export function ScreenFrame({ title, back = false, className, actions, children }: ScreenFrameProps) {
  const titleId = useId();
  const body = useRef<HTMLDivElement>(null);
  const scrollTop = useRef(0);

  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    // Setting it forces a layout before the frame; a screen shown for the first time is at the top already.
    if (scrollTop.current !== 0) el.scrollTop = scrollTop.current;
    const remember = () => { scrollTop.current = el.scrollTop; };
    el.addEventListener('scroll', remember, { passive: true });
    return () => el.removeEventListener('scroll', remember);
  }, []);

  return (
    <section className={className ? `screen ${className}` : 'screen'} aria-labelledby={titleId}>
      <header className="screen-header">
        {back && <BackButton />}
        <h1 id={titleId} className="screen-title">{title}</h1>
        {actions && <div className="screen-actions">{actions}</div>}
      </header>
      <div className="screen-body" ref={body} data-testid="screen-body">
        {children}
      </div>
    </section>
  );
}

function BackButton() {
  const router = useRouter();
  const canGoBack = useCanGoBack();
  return (
    <button
      type="button"
      className="icon-button back-button"
      aria-label="Back"
      onClick={() => (canGoBack ? router.history.back() : void router.navigate({ to: '/' }))}
    >
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
        <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </button>
  );
}
