"use client";
// SOAP notes: generate them from the current case, and read the last ones.
import type { SoapNotes } from "./component-api";
import styles from "./diagnostics.module.css";

interface Props {
  notes: SoapNotes | null;
  busy: boolean;
  disabled: boolean;
  onGenerate: () => void;
}

export function SoapPanel({ notes, busy, disabled, onGenerate }: Props) {
  return (
    <section className={styles.panel} aria-labelledby="soap-heading" aria-busy={busy}>
      <h2 id="soap-heading">SOAP notes</h2>
      <div className={styles.actions}>
        <button
          type="button"
          className={`${styles.button} ${styles.primary}`}
          disabled={disabled || busy}
          onClick={onGenerate}
        >
          {busy ? "Generating…" : notes ? "Regenerate SOAP notes" : "Generate SOAP notes"}
        </button>
      </div>
      {notes ? (
        <>
          <pre className={styles.soap} data-testid="soap-notes" tabIndex={0}>
            {notes.text}
          </pre>
          <p className={`${styles.small} ${styles.muted}`}>
            Written by {notes.generator} at {new Date(notes.generated_at).toLocaleString()}. Check every line
            marked [Vet to confirm].
          </p>
        </>
      ) : null}
    </section>
  );
}
