// /cases/{id} — one case: the notes with key phrases marked, the patient, the signs, the ranked
// differentials with their evidence, SOAP notes, the diagnostics component for editing, and delete.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db";
import { listAnimalTypes } from "@/lib/catalogue/list-animal-types";
import { listGenders } from "@/lib/catalogue/list-genders";
import { getCaseRow } from "@/lib/cases/get-case";
import { differentialsForCase } from "@/lib/diagnosis/case-differentials";
import type { Differential } from "@/lib/diagnosis/schemas";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { componentCaseView } from "@/lib/sessions/component-case-view";
import { createComponentSession } from "@/lib/sessions/create-session";
import { ActionForm } from "../../_components/action-form";
import { CaseProgress } from "../../_components/case-progress";
import { formatDateTime, isInProgress } from "../../_components/case-status";
import { EmbeddedDiagnostics } from "../../_components/embedded-diagnostics";
import { requireVet } from "../../session";
import { deleteCaseAction, generateSoapNotesAction } from "../actions";
import { DifferentialsChart } from "./differentials-chart";
import { HighlightedNotes, type KeyPhrase } from "./highlighted-notes";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Case" };

const SOAP_SECTIONS = [
  ["subjective", "S: Subjective"],
  ["objective", "O: Objective"],
  ["assessment", "A: Assessment"],
  ["plan", "P: Plan"],
] as const;

async function loadCase(db: Awaited<ReturnType<typeof getDb>>, caseId: string, veterinarianId: string) {
  try {
    return await getCaseRow(db, { caseId, veterinarianId });
  } catch (error) {
    if (error instanceof AppError && error.kind === "not_found") notFound();
    throw error;
  }
}

async function rankedDifferentials(
  db: Awaited<ReturnType<typeof getDb>>,
  where: { caseId: string; veterinarianId: string },
): Promise<{ data: Differential[]; note?: string } | { message: string }> {
  try {
    return await differentialsForCase(db, where, { limit: 8 });
  } catch (error) {
    if (error instanceof AppError && error.kind === "validation") {
      return { message: "Set the patient's species in the editor below to rank differentials." };
    }
    throw error;
  }
}

export default async function CasePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const identity = await requireVet(`/cases/${id}`);
  const db = await getDb();
  const row = await loadCase(db, id, identity.veterinarianId);
  const where = { caseId: row.id, veterinarianId: identity.veterinarianId };
  const processing = isInProgress(row.status);
  const [view, animalTypes, genders, differentials, session] = await Promise.all([
    componentCaseView(db, row, { readOnly: false }),
    listAnimalTypes(db),
    listGenders(db),
    processing ? null : rankedDifferentials(db, where),
    processing
      ? null
      : createComponentSession(db, identity, {
          component: "diagnostics",
          case_id: row.id,
          parent_origin: getEnv().APP_URL,
        }),
  ]);
  const resource = view.case;
  const patient = resource.patient;
  const extracted = resource.ai_extracted_patient;
  const names = new Map(view.symptoms.map((s) => [s.id, s.symptom_name]));
  const speciesName =
    animalTypes.find((type) => type.id === patient?.animal_type_id)?.name ??
    extracted?.animal_type_id ??
    null;
  const sexName =
    genders.find((gender) => gender.id === patient?.gender_id)?.name ?? extracted?.gender ?? null;
  const patientName = patient?.name ?? extracted?.name ?? null;
  const weight = patient?.weight_kg ?? (extracted?.weight ? Number(extracted.weight) : null);
  const phrases: KeyPhrase[] = (resource.suggested_symptoms ?? []).flatMap((suggestion) =>
    suggestion.key_phrases.map((phrase) => ({
      phrase,
      sign: suggestion.symptom.symptom_name,
      absent: suggestion.status === "absent",
    })),
  );
  const denied = (resource.suggested_symptoms ?? []).filter((s) => s.status === "absent");
  const working = resource.selected_diagnoses[0] ?? null;
  const soap = resource.soap_notes;

  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb small">
        <Link href="/cases">Cases</Link> <span aria-hidden="true">/</span>{" "}
        <span aria-current="page">{patientName ?? "Case"}</span>
      </nav>
      <div className="page-heading">
        <div>
          <h1>{patientName ?? "Unnamed patient"}</h1>
          <p className="muted small">
            Created <time dateTime={resource.created_at}>{formatDateTime(resource.created_at)}</time> · Case{" "}
            <code>{resource.id}</code>
          </p>
        </div>
        <CaseProgress key={row.status} caseId={row.id} initialStatus={row.status} />
      </div>

      {resource.error ? (
        <p className="alert" role="alert">
          Processing failed at step “{resource.error.step}”: {resource.error.message}
        </p>
      ) : null}

      <div className="case-grid">
        <section className="card" aria-labelledby="notes-title">
          <h2 id="notes-title">Notes</h2>
          <HighlightedNotes notes={resource.notes} phrases={phrases} />
          {phrases.length ? (
            <p className="muted small">Highlighted: the phrases each clinical sign was read from.</p>
          ) : null}
        </section>

        <section className="card" aria-labelledby="patient-title">
          <h2 id="patient-title">Patient</h2>
          {processing && !extracted ? (
            <p className="muted">Reading the patient from the notes…</p>
          ) : (
            <dl className="facts" data-testid="patient">
              <dt>Name</dt>
              <dd>{patientName ?? "—"}</dd>
              <dt>Species</dt>
              <dd>{speciesName ?? "Not known"}</dd>
              <dt>Breed</dt>
              <dd>{view.breed?.name ?? extracted?.breed ?? "—"}</dd>
              <dt>Sex</dt>
              <dd>{sexName ?? "—"}</dd>
              <dt>Neutered</dt>
              <dd>
                {(patient?.neutered ?? extracted?.neutered) === null ||
                (patient?.neutered ?? extracted?.neutered) === undefined
                  ? "—"
                  : (patient?.neutered ?? extracted?.neutered)
                    ? "Yes"
                    : "No"}
              </dd>
              <dt>Weight</dt>
              <dd>{weight !== null && Number.isFinite(weight) ? `${weight} kg` : "—"}</dd>
            </dl>
          )}
        </section>

        <section className="card" aria-labelledby="signs-title">
          <h2 id="signs-title">Clinical signs</h2>
          {resource.selected_symptoms.length ? (
            <ul className="chips" data-testid="signs">
              {resource.selected_symptoms.map((sign) => (
                <li key={sign.id} className="chip">
                  {names.get(sign.id) ?? `Sign ${sign.id}`}
                  {sign.significant ? <span className="chip-flag">significant</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{processing ? "Extracting signs…" : "No signs selected."}</p>
          )}
          {denied.length ? (
            <p className="small muted">
              Noted as absent: {denied.map((s) => s.symptom.symptom_name).join(", ")}
            </p>
          ) : null}
        </section>
      </div>

      <section className="card" aria-labelledby="ddx-title">
        <h2 id="ddx-title">Differential diagnoses</h2>
        {differentials === null ? (
          <p className="muted">Differentials are ranked once processing completes.</p>
        ) : "message" in differentials ? (
          <p className="muted">{differentials.message}</p>
        ) : differentials.data.length === 0 ? (
          <p className="muted">No conditions to rank for this species yet.</p>
        ) : (
          <>
            {differentials.note ? (
              <p className="notice small" data-testid="differentials-note" role="status">
                {differentials.note}
              </p>
            ) : null}
            <p className="muted small">
              Probability among the species’ conditions, given the selected signs and findings. Choose the
              working diagnosis in the editor below.
            </p>
            <DifferentialsChart
              differentials={differentials.data}
              workingDiagnosisId={working?.id ?? null}
              speciesNames={new Map(animalTypes.map((type) => [type.id, type.name]))}
            />
          </>
        )}
        {working ? (
          <p data-testid="working-diagnosis">
            Working diagnosis: <strong>{working.name}</strong>
          </p>
        ) : null}
      </section>

      <section className="card" aria-labelledby="soap-title">
        <div className="section-heading">
          <h2 id="soap-title">SOAP notes</h2>
          <ActionForm
            action={generateSoapNotesAction.bind(null, row.id)}
            label={soap ? "Regenerate SOAP notes" : "Generate SOAP notes"}
            pendingLabel="Writing…"
            variant={soap ? "secondary" : "primary"}
            disabled={processing}
            testId="generate-soap"
          />
        </div>
        {soap ? (
          <div className="soap" data-testid="soap-notes">
            {SOAP_SECTIONS.map(([key, title]) => (
              <section key={key} aria-label={title}>
                <h3>{title}</h3>
                <p className="preserve-lines">{soap[key]}</p>
              </section>
            ))}
            <p className="muted small">
              Written by {soap.generator} on{" "}
              <time dateTime={soap.generated_at}>{formatDateTime(soap.generated_at)}</time>.
            </p>
          </div>
        ) : (
          <p className="muted">
            {processing
              ? "Available once processing completes."
              : "No SOAP notes yet. Choose a working diagnosis first for a complete assessment."}
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="editor-title">
        <h2 id="editor-title">Edit patient, signs and diagnosis</h2>
        {session ? (
          <EmbeddedDiagnostics url={session.url} />
        ) : (
          <p className="muted">The editor opens once processing completes.</p>
        )}
      </section>

      <section className="card danger-zone" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete this case</h2>
        <p className="muted small">Deleting removes the notes, the extraction and the SOAP notes for good.</p>
        <ActionForm
          action={deleteCaseAction.bind(null, row.id)}
          label="Delete case"
          pendingLabel="Deleting…"
          variant="danger"
          confirm={{ prompt: "Delete this case permanently?", confirmLabel: "Yes, delete it" }}
          testId="delete-case"
        />
      </section>
    </>
  );
}
