"use client";
// The component's title and Save button, its status line (read by screen readers as it changes),
// and the notices above the panels.
import styles from "./diagnostics.module.css";

export function DiagnosticsHeader({
  title,
  status,
  saveDisabled,
  onSave,
}: {
  title: string;
  status: string;
  saveDisabled: boolean;
  onSave: () => void;
}) {
  return (
    <>
      <header className={styles.header}>
        <h1>{title}</h1>
        <div className={styles.actions}>
          <button
            type="button"
            className={`${styles.button} ${styles.primary}`}
            onClick={onSave}
            disabled={saveDisabled}
          >
            Save
          </button>
        </div>
      </header>
      <p className={styles.status} role="status" aria-live="polite" data-testid="status">
        {status}
      </p>
    </>
  );
}

export function SessionNotices({
  freeForm,
  readOnly,
  processingFailure,
  error,
}: {
  freeForm: boolean;
  readOnly: boolean;
  /** The pipeline failed on the notes (with its reason, when it gave one); null when it did not. */
  processingFailure: { reason: string | null } | null;
  error: string | null;
}) {
  return (
    <>
      {freeForm ? (
        <p className={`${styles.small} ${styles.muted}`}>
          This session has no case: pick the species and signs to rank differentials. Nothing is stored.
        </p>
      ) : null}
      {readOnly ? (
        <p className={`${styles.small} ${styles.muted}`} data-testid="read-only">
          View only: this session was opened without permission to change the case or write notes.
        </p>
      ) : null}
      {processingFailure ? (
        <p className={styles.alert} role="alert">
          Processing the notes failed
          {processingFailure.reason !== null ? `: ${processingFailure.reason}` : ""}. You can still set the
          patient and signs by hand.
        </p>
      ) : null}
      {error ? (
        <p className={styles.alert} role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
