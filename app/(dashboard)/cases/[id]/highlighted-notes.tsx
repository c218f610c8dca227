// The case notes as text with the phrases behind each extracted sign marked (denied signs struck).
// React escapes every segment, whatever the notes contain.
import { segmentNotes, type KeyPhrase } from "@/lib/cases/key-phrase-segments";

export type { KeyPhrase } from "@/lib/cases/key-phrase-segments";

export function HighlightedNotes({ notes, phrases }: { notes: string; phrases: KeyPhrase[] }) {
  return (
    <p className="case-notes" data-testid="case-notes">
      {segmentNotes(notes, phrases).map((segment, index) =>
        segment.mark ? (
          <mark
            key={index}
            className={segment.mark.absent ? "mark-absent" : undefined}
            title={`${segment.mark.absent ? "Denied: " : ""}${segment.mark.sign}`}
          >
            {segment.text}
          </mark>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </p>
  );
}
