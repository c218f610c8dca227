// Ranked differentials as a horizontal bar chart (probability among the species' conditions) with
// the findings for and against each. Plain HTML and CSS: the numbers are text, the bars decoration.
import type { Differential } from "@/lib/diagnosis/schemas";

const percent = (score: number) => `${(score * 100).toFixed(score >= 0.1 ? 0 : 1)}%`;

export function DifferentialsChart({
  differentials,
  workingDiagnosisId,
  speciesNames = new Map(),
}: {
  differentials: Differential[];
  workingDiagnosisId: number | null;
  /** Species names by animal type id, for a list that spans species (the notes named none). */
  speciesNames?: ReadonlyMap<number, string>;
}) {
  return (
    <ol className="ddx-chart" data-testid="differentials">
      {differentials.map((differential) => {
        const working = differential.id === workingDiagnosisId;
        return (
          <li key={differential.id} className={working ? "ddx working" : "ddx"}>
            <div className="ddx-head">
              <span className="ddx-name">
                {differential.name}
                {differential.animal_type_id !== undefined ? (
                  <span className="muted">
                    {" "}
                    ({speciesNames.get(differential.animal_type_id) ?? "other species"})
                  </span>
                ) : null}
                {working ? <span className="badge working-badge">Working diagnosis</span> : null}
              </span>
              <span className="ddx-score">{percent(differential.score)}</span>
            </div>
            <div className="ddx-track" aria-hidden="true">
              <div className="ddx-bar" style={{ width: `${Math.max(differential.score * 100, 0.5)}%` }} />
            </div>
            <p className="ddx-evidence small">
              {differential.evidence.supporting.length ? (
                <span>
                  <span className="evidence-for">Supported by:</span>{" "}
                  {differential.evidence.supporting.map((sign) => sign.symptom_name).join(", ")}
                </span>
              ) : (
                <span className="muted">No supporting signs recorded.</span>
              )}
              {differential.evidence.findings?.length ? (
                <span>
                  {" "}
                  <span className="evidence-for">Findings:</span>{" "}
                  {differential.evidence.findings.map((finding) => finding.symptom_name).join(", ")}
                </span>
              ) : null}
              {differential.evidence.against.length ? (
                <span>
                  {" "}
                  <span className="evidence-against">Against:</span>{" "}
                  {differential.evidence.against.map((sign) => sign.symptom_name).join(", ")}
                </span>
              ) : null}
            </p>
          </li>
        );
      })}
    </ol>
  );
}
