/** A labelled progress bar (wishlist progress, the live gift task): what it counts, done of total, and how far in %. */
import './live-parts.css';

export function ProgressMeter({
  label, done, total, className,
}: { label: string; done: number; total: number; className?: string }) {
  const percent = total > 0 ? Math.round(Math.min(1, Math.max(0, done / total)) * 100) : 100;
  return (
    <div
      className={className ? `progress-meter ${className}` : 'progress-meter'}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${done} of ${total}`}
    >
      <span className="progress-meter-fill" style={{ width: `${percent}%` }} />
    </div>
  );
}
