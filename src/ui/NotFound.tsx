import { Link } from '@tanstack/react-router';

/** An unknown path: say so and offer the way home. */
export function NotFound() {
  return (
    <section className="centered-panel" aria-labelledby="not-found-title">
      <h1 id="not-found-title" className="screen-title">Page not found</h1>
      <p className="muted">This page does not exist or has moved.</p>
      <Link to="/" className="button-link">Go home</Link>
    </section>
  );
}
