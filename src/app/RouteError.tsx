/**
 * What a screen shows when it failed to load or render — most often because its code could
 * not be fetched while the network (or the server) was away. The error is logged, the
 * person is told in words and can try again; nothing else of the app is lost.
 */
import type { ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { retryFailedLoads } from './lazyComponent';

export function RouteError({ error, reset }: ErrorComponentProps) {
  useEffect(() => {
    console.error('Screen failed:', error);
  }, [error]);
  const offline = /dynamically imported module|preload|Failed to fetch|Loading chunk/i.test(error instanceof Error ? error.message : String(error));
  return (
    <div className="route-error" role="alert">
      <p>{offline ? 'This screen could not be loaded. Check the connection and try again.' : 'Something went wrong on this screen.'}</p>
      {/* The screen renders again and, if its code failed to come, fetches it again (lazyComponent):
          the page is not reloaded, so an ongoing call or live and what was typed elsewhere stay. */}
      <button
        type="button"
        className="button-link button-primary"
        onClick={() => {
          retryFailedLoads();
          reset();
        }}
      >
        Try again
      </button>
    </div>
  );
}
