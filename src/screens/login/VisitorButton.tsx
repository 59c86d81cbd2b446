import { useSelector } from '@xstate/react';
import { selectSubmitting } from '../../../machines/app/app.selectors';
import { useAppActor } from '../../app/AppActorContext';

/** Visitor entry (SPEC §6 Visitor): disabled while another entry is being checked. */
export function VisitorButton() {
  const app = useAppActor();
  const submitting = useSelector(app, selectSubmitting);
  return (
    <button type="button" className="text-button" disabled={submitting} onClick={() => app.send({ type: 'visitor.enter' })}>
      Continue as a visitor
    </button>
  );
}
