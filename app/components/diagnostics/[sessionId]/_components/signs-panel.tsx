"use client";
// Clinical signs: the selection (with significance), signs the notes mention that are not selected,
// and a catalogue search to add more.
import { useEffect, useRef, useState } from "react";
import type { SignName } from "./component-api";
import type { ComponentBackend } from "./component-backend";
import styles from "./diagnostics.module.css";

export interface SelectedSign {
  id: number;
  name: string;
  category: string;
  significant: boolean;
}

export interface OtherSign {
  id: number;
  name: string;
  /** Why it is listed: "removed", "denied in notes", "historical"… */
  reason: string;
}

interface Props {
  searchSymptoms: ComponentBackend["searchSymptoms"];
  animalTypeId: number | null;
  selected: SelectedSign[];
  others: OtherSign[];
  disabled: boolean;
  onSelect: (sign: { id: number; name: string; category: string }) => void;
  onDeselect: (sign: SelectedSign) => void;
  onSignificant: (sign: SelectedSign, significant: boolean) => void;
}

function SignSearch({
  searchSymptoms,
  animalTypeId,
  selectedIds,
  disabled,
  onSelect,
}: {
  searchSymptoms: ComponentBackend["searchSymptoms"];
  animalTypeId: number | null;
  selectedIds: Set<number>;
  disabled: boolean;
  onSelect: Props["onSelect"];
}) {
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<SignName[]>([]);
  const [searched, setSearched] = useState(false);
  const latest = useRef(0);

  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) return;
    const ticket = ++latest.current;
    const timer = setTimeout(async () => {
      try {
        const found = await searchSymptoms({ q, animalTypeId });
        if (ticket === latest.current) {
          setResults(found);
          setSearched(true);
        }
      } catch {
        if (ticket === latest.current) setResults([]);
      }
    }, 200);
    return () => clearTimeout(timer);
  }, [searchSymptoms, query, animalTypeId]);

  const shown = query.trim().length < 2 ? [] : results;
  return (
    <div className={styles.field}>
      <label htmlFor="sign-search">Add a sign from the catalogue</label>
      <input
        id="sign-search"
        type="search"
        placeholder="e.g. vomiting, limping, v+"
        value={query}
        disabled={disabled}
        autoComplete="off"
        onChange={(event) => {
          setQuery(event.target.value);
          setSearched(false);
        }}
      />
      {shown.length > 0 ? (
        <ul className={styles.list} aria-label="Signs found">
          {shown.map((sign) => (
            <li key={sign.id} className={styles.row}>
              <span className={styles.grow}>
                {sign.symptom_name}{" "}
                <span className={`${styles.small} ${styles.muted}`}>{sign.category_name}</span>
              </span>
              <button
                type="button"
                className={styles.button}
                disabled={disabled || selectedIds.has(sign.id)}
                aria-label={`Add ${sign.symptom_name}`}
                onClick={() => {
                  onSelect({ id: sign.id, name: sign.symptom_name, category: sign.category_name });
                  setQuery("");
                  setResults([]);
                }}
              >
                {selectedIds.has(sign.id) ? "Selected" : "Add"}
              </button>
            </li>
          ))}
        </ul>
      ) : searched && query.trim().length >= 2 ? (
        <p className={`${styles.small} ${styles.muted}`} role="status">
          No signs match “{query}”.
        </p>
      ) : null}
    </div>
  );
}

export function SignsPanel({
  searchSymptoms,
  animalTypeId,
  selected,
  others,
  disabled,
  onSelect,
  onDeselect,
  onSignificant,
}: Props) {
  const selectedIds = new Set(selected.map((s) => s.id));
  return (
    <section className={styles.panel} aria-labelledby="signs-heading">
      <h2 id="signs-heading">Clinical signs</h2>
      {selected.length === 0 ? (
        <p className={`${styles.small} ${styles.muted}`}>No signs selected yet.</p>
      ) : (
        <ul className={styles.list} aria-label="Selected signs" data-testid="selected-signs">
          {selected.map((sign) => (
            <li key={sign.id} className={styles.row}>
              <span className={styles.grow}>
                {sign.name} <span className={`${styles.small} ${styles.muted}`}>{sign.category}</span>
              </span>
              <label className={styles.check}>
                <input
                  type="checkbox"
                  checked={sign.significant}
                  disabled={disabled}
                  onChange={(event) => onSignificant(sign, event.target.checked)}
                />
                Significant<span className="visually-hidden"> ({sign.name})</span>
              </label>
              <button
                type="button"
                className={styles.button}
                disabled={disabled}
                aria-label={`Remove ${sign.name}`}
                onClick={() => onDeselect(sign)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 ? (
        <>
          <h3>Not selected</h3>
          <ul className={styles.list} aria-label="Signs not selected">
            {others.map((sign) => (
              <li key={sign.id} className={styles.row}>
                <span className={styles.grow}>
                  {sign.name} <span className={`${styles.small} ${styles.muted}`}>{sign.reason}</span>
                </span>
                <button
                  type="button"
                  className={styles.button}
                  disabled={disabled}
                  aria-label={`Select ${sign.name}`}
                  onClick={() => onSelect({ id: sign.id, name: sign.name, category: "" })}
                >
                  Select
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h3>Search</h3>
      <SignSearch
        searchSymptoms={searchSymptoms}
        animalTypeId={animalTypeId}
        selectedIds={selectedIds}
        disabled={disabled}
        onSelect={onSelect}
      />
    </section>
  );
}
