"use client";
// The diagnostics component's UI: a case (saved on every change, spec 6 rule 3) or a free-form
// selection (nothing stored). Its data comes from a ComponentBackend and its events go to a
// ComponentHost, so the same UI serves the embeddable page and other hosts.
import { useMemo, useState } from "react";
import { casePatient, keyPhrases, otherSigns, selectedSigns, signNames } from "./case-display";
import type { CaseView, Differential, Option, SoapNotes } from "./component-api";
import type { ComponentBackend } from "./component-backend";
import { DiagnosticsHeader, SessionNotices } from "./diagnostics-header";
import { DifferentialsPanel } from "./differentials-panel";
import styles from "./diagnostics.module.css";
import { NotesView } from "./notes-view";
import type { ComponentHost } from "./parent-events";
import { PatientForm, type PatientChange } from "./patient-form";
import { SessionMessage } from "./session-message";
import { SignsPanel, type SelectedSign } from "./signs-panel";
import { SoapPanel } from "./soap-panel";
import { useComponentCase } from "./use-component-case";
import { useDifferentials } from "./use-differentials";
import { freeFormRankKey, freeFormSavePayload, freeFormSelection, useFreeForm } from "./use-free-form";
import { useHostEvents } from "./use-host-events";
import { useSoapNotes } from "./use-soap-notes";

export interface DiagnosticsProps {
  backend: ComponentBackend;
  host: ComponentHost;
  animalTypes: Option[];
  genders: Option[];
  /** The session's case, or null for a free-form session. */
  initialView: CaseView | null;
  /** Whoever opened the session may not change the case: show it, offer no edits or notes. */
  readOnly?: boolean;
}

const STATUS_TEXT: Record<string, string> = {
  PENDING: "Waiting to process the notes…",
  PROCESSING: "Reading the notes…",
  INITIAL_AI_PROCESSING_DONE: "Matching signs to the catalogue…",
  SANITIZING: "Checking the results…",
};

export function Diagnostics({
  backend,
  host,
  animalTypes,
  genders,
  initialView,
  readOnly = false,
}: DiagnosticsProps) {
  const caseMode = initialView !== null;
  const { view, record, processing, gone, busy, error, fail, clearError, save } = useComponentCase(
    backend,
    initialView,
  );
  const { free, changePatient, addSign, removeSign, markSignificant, chooseDiagnosis } = useFreeForm();
  const { rootRef, emit } = useHostEvents(host, { ready: !gone && !processing, record });
  const soap = useSoapNotes(backend, (initialView?.case.soap_notes as SoapNotes | undefined) ?? null, {
    fail,
    clearError,
  });
  const [announcement, setAnnouncement] = useState("");

  // A free-form session stores nothing, so only SOAP notes (the write-scoped call) are withheld there.
  const locked = (readOnly && caseMode) || busy || processing || gone !== null;
  const patient = caseMode ? casePatient(view) : free.patient;
  const animalTypeId = patient.animal_type_id;
  const rankKey = caseMode ? `${record?.updated_at}|${record?.status}` : freeFormRankKey(free);
  const ranking = useDifferentials(backend, {
    key: rankKey,
    animalTypeId,
    paused: gone !== null || processing,
    selection: caseMode ? null : freeFormSelection(free),
    fail,
  });

  const names = useMemo(() => signNames(view), [view]);
  const selected = caseMode ? selectedSigns(record, names) : free.signs;
  const others = useMemo(() => otherSigns(record, names), [record, names]);
  const phrases = useMemo(() => keyPhrases(record), [record]);
  const chosen: Option | null = caseMode ? (record?.selected_diagnoses[0] ?? null) : free.diagnosis;

  const onPatientChange = async (change: PatientChange, breed?: Option | null) => {
    if (caseMode) await save(() => backend.updateCase({ patient: change }));
    else changePatient(change, breed);
  };

  const onSelect = async (sign: { id: number; name: string; category: string }) => {
    if (caseMode) {
      if (!(await save(() => backend.updateCase({ select_symptoms: [{ id: sign.id }] })))) return;
    } else {
      if (free.signs.some((s) => s.id === sign.id)) return;
      addSign(sign);
    }
    emit({ type: "symptomSelected", payload: { name: sign.name } });
    setAnnouncement(`${sign.name} selected`);
  };

  const onDeselect = async (sign: SelectedSign) => {
    if (caseMode) {
      if (!(await save(() => backend.updateCase({ deselect_symptoms: [sign.id] })))) return;
    } else {
      removeSign(sign.id);
    }
    setAnnouncement(`${sign.name} removed`);
  };

  const onSignificant = async (sign: SelectedSign, significant: boolean) => {
    if (caseMode) await save(() => backend.updateCase({ select_symptoms: [{ id: sign.id, significant }] }));
    else markSignificant(sign.id, significant);
  };

  const onChoose = async (differential: Differential) => {
    if (caseMode) {
      if (!(await save(() => backend.selectDiagnosis(differential.id)))) return;
    } else {
      chooseDiagnosis({ id: differential.id, name: differential.name });
    }
    emit({ type: "diagnoseSelected", payload: { name: differential.name } });
    setAnnouncement(`${differential.name} selected as the working diagnosis`);
  };

  const onGenerate = async () => {
    const notes = await soap.generate(caseMode ? null : freeFormSelection(free));
    if (!notes) return;
    emit({ type: "soapNotesGenerated", payload: { notes } });
    setAnnouncement("SOAP notes generated");
  };

  const onSave = async () => {
    if (caseMode) {
      const latest = await save(() => backend.getCase());
      if (!latest) return;
      emit({ type: "save", payload: { mode: "case", case_id: latest.case.id, case: latest.case } });
      setAnnouncement("Saved");
      return;
    }
    emit({ type: "save", payload: freeFormSavePayload(free) });
    setAnnouncement("Sent to your practice software");
  };

  if (gone) {
    return (
      <div ref={rootRef}>
        <SessionMessage state={gone === "missing" ? "unknown" : gone} />
      </div>
    );
  }

  const blockedReason = processing
    ? "Differentials appear once the notes are processed."
    : animalTypeId === null
      ? "Choose the patient's species to rank differentials."
      : null;

  return (
    <div ref={rootRef} className={styles.root}>
      <DiagnosticsHeader
        title={
          caseMode ? `Diagnostics${patient.name ? ` · ${patient.name}` : ""}` : "Diagnostics (free-form)"
        }
        status={processing ? (STATUS_TEXT[record!.status] ?? "Processing…") : busy ? "Saving…" : announcement}
        saveDisabled={locked}
        onSave={onSave}
      />
      <SessionNotices
        freeForm={!caseMode}
        readOnly={readOnly}
        processingFailure={
          record?.status === "ERROR" ? { reason: record.error ? record.error.message : null } : null
        }
        error={error}
      />
      <div className={styles.columns}>
        <div className={styles.stack}>
          {record ? <NotesView notes={record.notes} phrases={phrases} /> : null}
          <PatientForm
            searchBreeds={backend.searchBreeds}
            patient={patient}
            animalTypes={animalTypes}
            genders={genders}
            disabled={locked}
            withIdentity={caseMode}
            onChange={onPatientChange}
          />
          <SignsPanel
            searchSymptoms={backend.searchSymptoms}
            animalTypeId={animalTypeId}
            selected={selected}
            others={others}
            disabled={locked}
            onSelect={onSelect}
            onDeselect={onDeselect}
            onSignificant={onSignificant}
          />
        </div>
        <div className={styles.stack}>
          <DifferentialsPanel
            differentials={animalTypeId === null ? null : ranking.differentials}
            loading={ranking.ranking || (blockedReason === null && ranking.stale)}
            blockedReason={blockedReason}
            chosenId={chosen?.id ?? null}
            disabled={locked}
            onChoose={onChoose}
          />
          <SoapPanel
            notes={soap.notes}
            busy={soap.writing}
            disabled={locked || readOnly || (!caseMode && animalTypeId === null)}
            onGenerate={onGenerate}
          />
        </div>
      </div>
    </div>
  );
}
