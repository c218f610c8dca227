"use client";
// The case list's rows, rendered on the server with their data; while some are still in the
// pipeline this leaf polls /cases/live for those rows only and updates them in place.
import Link from "next/link";
import { useEffect, useState } from "react";
import type { CaseStatus } from "@/db/schema";
import { isInProgress, STATUS_LABELS } from "./case-status";
import { StatusBadge } from "./status-badge";

export interface CaseRowView {
  id: string;
  status: CaseStatus;
  patientName: string | null;
  animalTypeId: number | null;
  excerpt: string;
  created: string;
  createdIso: string;
  errorMessage: string | null;
}

interface LiveRow {
  id: string;
  status: CaseStatus;
  patient_name: string | null;
  animal_type_id: number | null;
  error_message: string | null;
}

const POLL_MS = 1500;

export function CasesTable({ rows, species }: { rows: CaseRowView[]; species: Record<number, string> }) {
  const [current, setCurrent] = useState(rows);
  const [announcement, setAnnouncement] = useState("");
  const [signedOut, setSignedOut] = useState(false);
  const [offline, setOffline] = useState(false);
  const [attempts, setAttempts] = useState(0);
  const pendingKey = current
    .filter((row) => isInProgress(row.status))
    .map((row) => row.id)
    .join(",");

  useEffect(() => {
    if (!pendingKey || signedOut) return;
    let stopped = false;
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`/cases/live?ids=${pendingKey}`, { cache: "no-store" });
        if (stopped) return;
        if (response.status === 401) return setSignedOut(true);
        if (!response.ok) throw new Error(`live rows answered ${response.status}`);
        const { data } = (await response.json()) as { data: LiveRow[] };
        if (stopped) return;
        setOffline(false);
        const byId = new Map(data.map((row) => [row.id, row]));
        setCurrent((previous) =>
          previous.map((row) => {
            const live = byId.get(row.id);
            return live
              ? {
                  ...row,
                  status: live.status,
                  patientName: live.patient_name,
                  animalTypeId: live.animal_type_id,
                  errorMessage: live.error_message,
                }
              : row;
          }),
        );
        const finished = data
          .filter((row) => !isInProgress(row.status))
          .map((row) => `${row.patient_name ?? "Case"}: ${STATUS_LABELS[row.status]}`);
        if (finished.length) setAnnouncement(finished.join(". "));
      } catch {
        if (!stopped) setOffline(true);
      } finally {
        if (!stopped) setAttempts((count) => count + 1);
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [pendingKey, signedOut, attempts]);

  return (
    <>
      <div className="visually-hidden" aria-live="polite" role="status">
        {announcement}
      </div>
      {signedOut ? (
        <p className="alert" role="alert">
          Your session has expired, so these rows no longer update.{" "}
          <a href={`/signin?error=SessionRequired&callbackUrl=${encodeURIComponent("/cases")}`}>
            Sign in again
          </a>
        </p>
      ) : null}
      {offline ? (
        <p className="notice" role="status">
          Cannot reach VetDx right now; retrying…
        </p>
      ) : null}
      <div className="table-wrap">
        <table className="cases-table">
          <caption className="visually-hidden">Your cases, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Patient</th>
              <th scope="col">Status</th>
              <th scope="col" className="hide-narrow">
                Notes
              </th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {current.map((row) => (
              <tr key={row.id} data-testid="case-row" data-case-id={row.id}>
                <td>
                  <Link href={`/cases/${row.id}`} className="case-link">
                    {row.patientName ?? "Unnamed patient"}
                  </Link>
                  <span className="muted small block">
                    {row.animalTypeId !== null
                      ? (species[row.animalTypeId] ?? "Unknown species")
                      : "Species not yet known"}
                  </span>
                </td>
                <td>
                  <StatusBadge status={row.status} />
                  {row.errorMessage ? <span className="muted small block">{row.errorMessage}</span> : null}
                </td>
                <td className="hide-narrow notes-excerpt">{row.excerpt}</td>
                <td>
                  <time dateTime={row.createdIso}>{row.created}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
