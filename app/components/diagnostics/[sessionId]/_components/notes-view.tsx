"use client";
// The case notes with the phrases that led to each suggested sign highlighted; denied signs struck
// through. Text only: React escapes it, whatever the notes contain.
import styles from "./diagnostics.module.css";
import { segmentNotes, type KeyPhrase } from "@/lib/cases/key-phrase-segments";

export type { KeyPhrase } from "@/lib/cases/key-phrase-segments";

export function NotesView({ notes, phrases }: { notes: string; phrases: KeyPhrase[] }) {
  return (
    <section className={styles.panel} aria-labelledby="notes-heading">
      <h2 id="notes-heading">Clinical notes</h2>
      <p className={styles.notes} data-testid="case-notes" tabIndex={0}>
        {segmentNotes(notes, phrases).map((segment, index) =>
          segment.mark ? (
            <mark
              key={index}
              className={segment.mark.absent ? styles.markAbsent : styles.mark}
              title={`${segment.mark.absent ? "Denied: " : ""}${segment.mark.sign}`}
            >
              {segment.text}
            </mark>
          ) : (
            <span key={index}>{segment.text}</span>
          ),
        )}
      </p>
    </section>
  );
}
