// A case's status as a badge; in-progress cases also show how far the pipeline has got.
import type { CaseStatus } from "@/db/schema";
import { isInProgress, PIPELINE_STEPS, STATUS_LABELS, stepsDone } from "./case-status";

export function StatusBadge({ status }: { status: CaseStatus }) {
  return (
    <span className="status-cell">
      <span className={`badge status-${status.toLowerCase()}`} data-status={status} data-testid="case-status">
        {STATUS_LABELS[status]}
      </span>
      {isInProgress(status) ? (
        <progress
          className="pipeline-progress"
          max={PIPELINE_STEPS}
          value={stepsDone(status)}
          aria-label={`Processing: step ${stepsDone(status) + 1} of ${PIPELINE_STEPS}`}
        />
      ) : null}
    </span>
  );
}
