// The case notes as text with the phrases behind each extracted sign marked (denied signs struck).
// React escapes every segment, whatever the notes contain.

export interface KeyPhrase {
  phrase: string;
  sign: string;
  absent: boolean;
}

interface Segment {
  text: string;
  mark?: KeyPhrase;
}

function segmentsOf(notes: string, phrases: KeyPhrase[]): Segment[] {
  const lower = notes.toLowerCase();
  const ranges: { start: number; end: number; mark: KeyPhrase }[] = [];
  // Longer phrases first, so "bloody diarrhoea" wins over "diarrhoea".
  for (const mark of [...phrases].sort((a, b) => b.phrase.length - a.phrase.length)) {
    const needle = mark.phrase.toLowerCase().trim();
    if (!needle) continue;
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
      const end = at + needle.length;
      if (!ranges.some((range) => at < range.end && end > range.start)) ranges.push({ start: at, end, mark });
    }
  }
  ranges.sort((a, b) => a.start - b.start);
  const segments: Segment[] = [];
  let cursor = 0;
  for (const range of ranges) {
    if (range.start > cursor) segments.push({ text: notes.slice(cursor, range.start) });
    segments.push({ text: notes.slice(range.start, range.end), mark: range.mark });
    cursor = range.end;
  }
  if (cursor < notes.length) segments.push({ text: notes.slice(cursor) });
  return segments;
}

export function HighlightedNotes({ notes, phrases }: { notes: string; phrases: KeyPhrase[] }) {
  return (
    <p className="case-notes" data-testid="case-notes">
      {segmentsOf(notes, phrases).map((segment, index) =>
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
