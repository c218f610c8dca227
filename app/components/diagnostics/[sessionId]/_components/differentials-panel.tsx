"use client";
// Ranked differentials with the evidence behind each, and the choice of working diagnosis.
import type { Differential } from "./component-api";
import styles from "./diagnostics.module.css";

interface Props {
  differentials: Differential[] | null;
  loading: boolean;
  blockedReason: string | null;
  chosenId: number | null;
  disabled: boolean;
  onChoose: (differential: Differential) => void;
}

function percent(score: number): string {
  const value = score * 100;
  return value >= 1 ? `${Math.round(value)}%` : "<1%";
}

export function DifferentialsPanel({
  differentials,
  loading,
  blockedReason,
  chosenId,
  disabled,
  onChoose,
}: Props) {
  return (
    <section className={styles.panel} aria-labelledby="ddx-heading" aria-busy={loading}>
      <h2 id="ddx-heading">Differential diagnoses</h2>
      {blockedReason ? (
        <p className={`${styles.small} ${styles.muted}`}>{blockedReason}</p>
      ) : differentials === null ? (
        <p className={`${styles.small} ${styles.muted}`}>{loading ? "Ranking…" : "Not ranked yet."}</p>
      ) : differentials.length === 0 ? (
        <p className={`${styles.small} ${styles.muted}`}>No conditions to rank for this species.</p>
      ) : (
        <ol className={styles.list} aria-label="Ranked differentials" data-testid="differentials">
          {differentials.map((d) => {
            const chosen = d.id === chosenId;
            return (
              <li key={d.id} className={`${styles.row} ${chosen ? styles.selected : ""}`}>
                <span className={styles.grow}>
                  <strong>{d.name}</strong> <span className={styles.small}>{percent(d.score)}</span>
                </span>
                <button
                  type="button"
                  className={`${styles.button} ${chosen ? styles.primary : ""}`}
                  aria-pressed={chosen}
                  disabled={disabled}
                  aria-label={
                    chosen ? `${d.name} is the working diagnosis` : `Select ${d.name} as the diagnosis`
                  }
                  onClick={() => onChoose(d)}
                >
                  {chosen ? "Selected" : "Select"}
                </button>
                <span className={styles.bar} aria-hidden="true">
                  <span style={{ width: `${Math.max(2, Math.round(d.score * 100))}%` }} />
                </span>
                {d.evidence.supporting.length > 0 ? (
                  <p className={styles.evidence}>
                    Supported by: {d.evidence.supporting.map((e) => e.symptom_name).join(", ")}
                  </p>
                ) : null}
                {d.evidence.against.length > 0 ? (
                  <p className={styles.evidence}>
                    Against: {d.evidence.against.map((e) => e.symptom_name).join(", ")}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
