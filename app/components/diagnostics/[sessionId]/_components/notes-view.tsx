"use client";
// The case notes with the phrases that led to each suggested sign highlighted; denied signs struck
// through. Text only: React escapes it, whatever the notes contain.
import styles from "./diagnostics.module.css";

export interface KeyPhrase {
  phrase: string;
  sign: string;
  absent: boolean;
}

interface Segment {
  text: string;
  mark?: KeyPhrase;
}

function segments(notes: string, phrases: KeyPhrase[]): Segment[] {
  const lower = notes.toLowerCase();
  const ranges: { start: number; end: number; mark: KeyPhrase }[] = [];
  // Longer phrases first so that "haemorrhagic diarrhoea" wins over "diarrhoea".
  for (const mark of [...phrases].sort((a, b) => b.phrase.length - a.phrase.length)) {
    const needle = mark.phrase.toLowerCase();
    if (!needle.trim()) continue;
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
      const end = at + needle.length;
      if (!ranges.some((r) => at < r.end && end > r.start)) ranges.push({ start: at, end, mark });
    }
  }
  ranges.sort((a, b) => a.start - b.start);
  const result: Segment[] = [];
  let cursor = 0;
  for (const range of ranges) {
    if (range.start > cursor) result.push({ text: notes.slice(cursor, range.start) });
    result.push({ text: notes.slice(range.start, range.end), mark: range.mark });
    cursor = range.end;
  }
  if (cursor < notes.length) result.push({ text: notes.slice(cursor) });
  return result;
}

export function NotesView({ notes, phrases }: { notes: string; phrases: KeyPhrase[] }) {
  return (
    <section className={styles.panel} aria-labelledby="notes-heading">
      <h2 id="notes-heading">Clinical notes</h2>
      <p className={styles.notes} data-testid="case-notes" tabIndex={0}>
        {segments(notes, phrases).map((segment, index) =>
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
