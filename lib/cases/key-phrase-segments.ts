// Splits case notes into plain and highlighted runs for the key phrases that led to each sign.
// Pure, so both the dashboard (server) and the embeddable component (browser) use it.

export interface KeyPhrase {
  phrase: string;
  /** The clinical sign the phrase was read as. */
  sign: string;
  /** The notes deny the sign ("no diarrhoea"). */
  absent: boolean;
}

export interface NotesSegment {
  text: string;
  mark?: KeyPhrase;
}

export function segmentNotes(notes: string, phrases: KeyPhrase[]): NotesSegment[] {
  const lower = notes.toLowerCase();
  const ranges: { start: number; end: number; mark: KeyPhrase }[] = [];
  // Longer phrases first, so "haemorrhagic diarrhoea" wins over "diarrhoea".
  for (const mark of [...phrases].sort((a, b) => b.phrase.length - a.phrase.length)) {
    const needle = mark.phrase.toLowerCase();
    if (!needle.trim()) continue;
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
      const end = at + needle.length;
      if (!ranges.some((range) => at < range.end && end > range.start)) ranges.push({ start: at, end, mark });
    }
  }
  ranges.sort((a, b) => a.start - b.start);
  const segments: NotesSegment[] = [];
  let cursor = 0;
  for (const range of ranges) {
    if (range.start > cursor) segments.push({ text: notes.slice(cursor, range.start) });
    segments.push({ text: notes.slice(range.start, range.end), mark: range.mark });
    cursor = range.end;
  }
  if (cursor < notes.length) segments.push({ text: notes.slice(cursor) });
  return segments;
}
