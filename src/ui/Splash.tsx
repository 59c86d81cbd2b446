/** Shown while the session settles (profile loading, signing out). */
export function Splash({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="splash" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
