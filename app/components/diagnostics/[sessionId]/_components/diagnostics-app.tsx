"use client";
// The diagnostics component: a case (saved on every change, spec 6 rule 3) or a free-form selection
// (nothing stored), with events to the embedding page.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  ApiError,
  componentApi,
  type CaseView,
  type Differential,
  type Option,
  type SoapNotes,
} from "./component-api";
import { DifferentialsPanel } from "./differentials-panel";
import styles from "./diagnostics.module.css";
import { NotesView, type KeyPhrase } from "./notes-view";
import { parentOrigin, postToParent, type ComponentEvent } from "./parent-events";
import { PatientForm, type PatientChange, type PatientValues } from "./patient-form";
import { SessionMessage } from "./session-message";
import { SignsPanel, type OtherSign, type SelectedSign } from "./signs-panel";
import { SoapPanel } from "./soap-panel";

interface Props {
  sessionId: string;
  allowedOrigins: string[];
  animalTypes: Option[];
  genders: Option[];
  /** The session's case, or null for a free-form session. */
  initialView: CaseView | null;
  /** Whoever opened the session may not change the case: show it, offer no edits or notes. */
  readOnly?: boolean;
}

interface FreeForm {
  patient: PatientValues;
  signs: SelectedSign[];
  diagnosis: Option | null;
}

const SETTLED = new Set(["COMPLETED", "ERROR"]);
const REASONS: Record<string, string> = {
  absent: "denied in the notes",
  historical: "past history",
  other_animal: "another animal",
  monitor: "to monitor",
  present: "suggested",
};
const STATUS_TEXT: Record<string, string> = {
  PENDING: "Waiting to process the notes…",
  PROCESSING: "Reading the notes…",
  INITIAL_AI_PROCESSING_DONE: "Matching signs to the catalogue…",
  SANITIZING: "Checking the results…",
};

export function DiagnosticsApp({
  sessionId,
  allowedOrigins,
  animalTypes,
  genders,
  initialView,
  readOnly = false,
}: Props) {
  const api = useMemo(() => componentApi(sessionId), [sessionId]);
  const [view, setView] = useState<CaseView | null>(initialView);
  const [free, setFree] = useState<FreeForm>({
    patient: { animal_type_id: null, breed: null, gender_id: null, neutered: null },
    signs: [],
    diagnosis: null,
  });
  const [gone, setGone] = useState<"expired" | "missing" | null>(null);
  // Each ranking remembers the inputs it was made for, so a stale list shows as busy.
  const [differentials, setDifferentials] = useState<{ key: string; data: Differential[] } | null>(null);
  const [ranking, setRanking] = useState(false);
  const [soap, setSoap] = useState<SoapNotes | null>(
    (initialView?.case.soap_notes as SoapNotes | undefined) ?? null,
  );
  const [soapBusy, setSoapBusy] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const rootRef = useRef<HTMLDivElement>(null);
  const targetOrigin = useRef<string | null>(null);
  const initSent = useRef(false);

  const caseMode = initialView !== null;
  const record = view?.case ?? null;
  const processing = record !== null && !SETTLED.has(record.status);
  // A free-form session stores nothing, so only SOAP notes (the write-scoped call) are withheld there.
  const locked = (readOnly && initialView !== null) || busy || processing || gone !== null;

  const emit = useCallback((event: ComponentEvent) => postToParent(targetOrigin.current, event), []);

  const fail = useCallback((problem: unknown) => {
    if (problem instanceof ApiError && problem.status === 410) setGone("expired");
    else if (problem instanceof ApiError && problem.status === 404) setGone("missing");
    else setError(problem instanceof Error ? problem.message : "Something went wrong");
  }, []);

  // Where events go: decided once, from the frame's real ancestor.
  useEffect(() => {
    targetOrigin.current = parentOrigin(allowedOrigins);
  }, [allowedOrigins]);

  // The embedding page sizes the frame to the content.
  useEffect(() => {
    const root = rootRef.current;
    if (!root || typeof ResizeObserver === "undefined") return;
    let last = 0;
    const observer = new ResizeObserver(() => {
      const height = Math.ceil(root.getBoundingClientRect().height);
      if (height !== last) {
        last = height;
        emit({ type: "resize", payload: { height } });
      }
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, [emit]);

  // Poll while the pipeline still works on the case (1 s, ×1.5, at most 5 s apart).
  useEffect(() => {
    if (!processing || gone) return;
    let delay = 1000;
    let timer: ReturnType<typeof setTimeout>;
    let stopped = false;
    const poll = async () => {
      try {
        const next = await api<CaseView>("/case");
        if (stopped) return;
        setView(next);
        if (SETTLED.has(next.case.status)) return;
      } catch (problem) {
        if (!stopped) fail(problem);
        return;
      }
      delay = Math.min(delay * 1.5, 5000);
      timer = setTimeout(poll, delay);
    };
    timer = setTimeout(poll, delay);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, processing, gone, fail]);

  // init, once, when the vet can start: at once without a case, else when the case is processed.
  useEffect(() => {
    if (initSent.current || gone || processing) return;
    initSent.current = true;
    emit({
      type: "init",
      payload: record ? { mode: "case", case_id: record.id, case: record } : { mode: "free" },
    });
  }, [emit, gone, processing, record]);

  const animalTypeId = caseMode ? (record?.patient?.animal_type_id ?? null) : free.patient.animal_type_id;
  const rankKey = caseMode
    ? `${record?.updated_at}|${record?.status}`
    : JSON.stringify([
        free.patient.animal_type_id,
        free.patient.breed?.id,
        free.patient.gender_id,
        free.patient.neutered,
        free.signs.map((s) => s.id),
      ]);

  // Differentials follow every change of the patient or the signs.
  useEffect(() => {
    if (gone || processing || animalTypeId === null) return;
    let current = true;
    const load = async () => {
      setRanking(true);
      try {
        const result = caseMode
          ? await api<{ data: Differential[] }>("/differentials?limit=10")
          : await api<{ data: Differential[] }>("/differentials?limit=10", {
              method: "POST",
              body: {
                animal_type_id: free.patient.animal_type_id,
                breed_id: free.patient.breed?.id ?? null,
                gender_id: free.patient.gender_id,
                neutered: free.patient.neutered,
                present_symptom_ids: free.signs.map((s) => s.id),
              },
            });
        if (current) setDifferentials({ key: rankKey, data: result.data });
      } catch (problem) {
        if (current) fail(problem);
      } finally {
        if (current) setRanking(false);
      }
    };
    void load();
    return () => {
      current = false;
    };
    // rankKey captures every input of the ranking.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, rankKey, animalTypeId, gone, processing, caseMode, fail]);

  const saveCase = useCallback(
    async (path: string, method: string, body: unknown): Promise<CaseView | null> => {
      setBusy(true);
      setError(null);
      try {
        const next = await api<CaseView>(path, { method, body });
        setView(next);
        return next;
      } catch (problem) {
        fail(problem);
        return null;
      } finally {
        setBusy(false);
      }
    },
    [api, fail],
  );

  const names = useMemo(() => new Map(view?.symptoms.map((s) => [s.id, s]) ?? []), [view]);

  const selected: SelectedSign[] = caseMode
    ? (record?.selected_symptoms ?? []).map((s) => ({
        id: s.id,
        name: names.get(s.id)?.symptom_name ?? `Sign ${s.id}`,
        category: names.get(s.id)?.category_name ?? "",
        significant: s.significant,
      }))
    : free.signs;

  const others: OtherSign[] = useMemo(() => {
    if (!record) return [];
    const selectedIds = new Set(record.selected_symptoms.map((s) => s.id));
    const listed = new Map<number, OtherSign>();
    for (const d of record.de_selected_symptoms) {
      listed.set(d.id, {
        id: d.id,
        name: names.get(d.id)?.symptom_name ?? `Sign ${d.id}`,
        reason: "removed",
      });
    }
    for (const s of record.suggested_symptoms ?? []) {
      if (selectedIds.has(s.symptom.id) || listed.has(s.symptom.id)) continue;
      listed.set(s.symptom.id, {
        id: s.symptom.id,
        name: s.symptom.symptom_name,
        reason: REASONS[s.status] ?? s.status,
      });
    }
    return [...listed.values()];
  }, [record, names]);

  const phrases: KeyPhrase[] = useMemo(
    () =>
      (record?.suggested_symptoms ?? []).flatMap((s) =>
        s.key_phrases.map((phrase) => ({
          phrase,
          sign: s.symptom.symptom_name,
          absent: s.status === "absent",
        })),
      ),
    [record],
  );

  const patient: PatientValues = caseMode
    ? {
        animal_type_id: record?.patient?.animal_type_id ?? null,
        breed: view?.breed ?? null,
        gender_id: record?.patient?.gender_id ?? null,
        neutered: record?.patient?.neutered ?? null,
        name: record?.patient?.name ?? null,
        weight_kg: record?.patient?.weight_kg ?? null,
      }
    : free.patient;

  const chosen: Option | null = caseMode ? (record?.selected_diagnoses[0] ?? null) : free.diagnosis;

  const onPatientChange = async (change: PatientChange, breed?: Option | null) => {
    if (caseMode) {
      await saveCase("/case", "PATCH", { patient: change });
      return;
    }
    setFree((state) => ({
      ...state,
      diagnosis: change.animal_type_id !== undefined ? null : state.diagnosis,
      patient: {
        ...state.patient,
        ...(change.animal_type_id !== undefined ? { animal_type_id: change.animal_type_id } : {}),
        ...(change.gender_id !== undefined ? { gender_id: change.gender_id } : {}),
        ...(change.neutered !== undefined ? { neutered: change.neutered } : {}),
        ...(breed !== undefined ? { breed } : {}),
      },
    }));
  };

  const onSelect = async (sign: { id: number; name: string; category: string }) => {
    if (caseMode) {
      if (await saveCase("/case", "PATCH", { select_symptoms: [{ id: sign.id }] })) {
        emit({ type: "symptomSelected", payload: { name: sign.name } });
        setAnnouncement(`${sign.name} selected`);
      }
      return;
    }
    if (free.signs.some((s) => s.id === sign.id)) return;
    setFree((state) => ({ ...state, signs: [...state.signs, { ...sign, significant: false }] }));
    emit({ type: "symptomSelected", payload: { name: sign.name } });
    setAnnouncement(`${sign.name} selected`);
  };

  const onDeselect = async (sign: SelectedSign) => {
    if (caseMode) {
      if (await saveCase("/case", "PATCH", { deselect_symptoms: [sign.id] }))
        setAnnouncement(`${sign.name} removed`);
      return;
    }
    setFree((state) => ({ ...state, signs: state.signs.filter((s) => s.id !== sign.id) }));
    setAnnouncement(`${sign.name} removed`);
  };

  const onSignificant = async (sign: SelectedSign, significant: boolean) => {
    if (caseMode) {
      await saveCase("/case", "PATCH", { select_symptoms: [{ id: sign.id, significant }] });
      return;
    }
    setFree((state) => ({
      ...state,
      signs: state.signs.map((s) => (s.id === sign.id ? { ...s, significant } : s)),
    }));
  };

  const onChoose = async (differential: Differential) => {
    if (caseMode) {
      if (!(await saveCase("/diagnosis", "PUT", { diagnosis_id: differential.id }))) return;
    } else {
      setFree((state) => ({ ...state, diagnosis: { id: differential.id, name: differential.name } }));
    }
    emit({ type: "diagnoseSelected", payload: { name: differential.name } });
    setAnnouncement(`${differential.name} selected as the working diagnosis`);
  };

  const onGenerate = async () => {
    setSoapBusy(true);
    setError(null);
    try {
      const notes = caseMode
        ? await api<SoapNotes>("/soap-notes", { method: "POST", body: {} })
        : await api<SoapNotes>("/soap-notes", {
            method: "POST",
            body: {
              animal_type_id: free.patient.animal_type_id,
              breed_id: free.patient.breed?.id ?? null,
              gender_id: free.patient.gender_id,
              neutered: free.patient.neutered,
              signs: free.signs.map((s) => ({ id: s.id, significant: s.significant })),
              diagnosis_id: free.diagnosis?.id ?? null,
            },
          });
      setSoap(notes);
      emit({ type: "soapNotesGenerated", payload: { notes } });
      setAnnouncement("SOAP notes generated");
    } catch (problem) {
      fail(problem);
    } finally {
      setSoapBusy(false);
    }
  };

  const onSave = async () => {
    if (caseMode) {
      setBusy(true);
      setError(null);
      try {
        const latest = await api<CaseView>("/case");
        setView(latest);
        emit({ type: "save", payload: { mode: "case", case_id: latest.case.id, case: latest.case } });
        setAnnouncement("Saved");
      } catch (problem) {
        fail(problem);
      } finally {
        setBusy(false);
      }
      return;
    }
    emit({
      type: "save",
      payload: {
        mode: "free",
        animal_type_id: free.patient.animal_type_id,
        breed_id: free.patient.breed?.id ?? null,
        gender_id: free.patient.gender_id,
        neutered: free.patient.neutered,
        selected_symptoms: free.signs.map((s) => ({ id: s.id, name: s.name, significant: s.significant })),
        diagnosis: free.diagnosis,
      },
    });
    setAnnouncement("Sent to your practice software");
  };

  if (gone) {
    return (
      <div ref={rootRef}>
        <SessionMessage state={gone === "expired" ? "expired" : "unknown"} />
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
      <header className={styles.header}>
        <h1>
          {caseMode ? `Diagnostics${patient.name ? ` · ${patient.name}` : ""}` : "Diagnostics (free-form)"}
        </h1>
        <div className={styles.actions}>
          <button
            type="button"
            className={`${styles.button} ${styles.primary}`}
            onClick={onSave}
            disabled={locked}
          >
            Save
          </button>
        </div>
      </header>
      <p className={styles.status} role="status" aria-live="polite" data-testid="status">
        {processing ? (STATUS_TEXT[record!.status] ?? "Processing…") : busy ? "Saving…" : announcement}
      </p>
      {!caseMode ? (
        <p className={`${styles.small} ${styles.muted}`}>
          This session has no case: pick the species and signs to rank differentials. Nothing is stored.
        </p>
      ) : null}
      {readOnly ? (
        <p className={`${styles.small} ${styles.muted}`} data-testid="read-only">
          View only: this session was opened without permission to change the case or write notes.
        </p>
      ) : null}
      {record?.status === "ERROR" ? (
        <p className={styles.alert} role="alert">
          Processing the notes failed{record.error ? `: ${record.error.message}` : ""}. You can still set the
          patient and signs by hand.
        </p>
      ) : null}
      {error ? (
        <p className={styles.alert} role="alert">
          {error}
        </p>
      ) : null}
      <div className={styles.columns}>
        <div className={styles.stack}>
          {record ? <NotesView notes={record.notes} phrases={phrases} /> : null}
          <PatientForm
            api={api}
            patient={patient}
            animalTypes={animalTypes}
            genders={genders}
            disabled={locked}
            withIdentity={caseMode}
            onChange={onPatientChange}
          />
          <SignsPanel
            api={api}
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
            differentials={animalTypeId === null ? null : (differentials?.data ?? null)}
            loading={ranking || (blockedReason === null && differentials?.key !== rankKey)}
            blockedReason={blockedReason}
            chosenId={chosen?.id ?? null}
            disabled={locked}
            onChoose={onChoose}
          />
          <SoapPanel
            notes={soap}
            busy={soapBusy}
            disabled={locked || readOnly || (!caseMode && animalTypeId === null)}
            onGenerate={onGenerate}
          />
        </div>
      </div>
    </div>
  );
}
