import DotLoading from 'antd-mobile/es/components/dot-loading';

/** Shown while the session settles (profile loading, signing out). */
export function Splash({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="splash" role="status" aria-live="polite">
      <DotLoading color="primary" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
