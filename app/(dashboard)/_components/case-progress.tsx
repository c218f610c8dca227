"use client";
// On a case still in the pipeline: polls its status and re-renders the page (server data) once it
// has finished, so the vet sees PENDING → COMPLETED without reloading.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { CaseStatus } from "@/db/schema";
import { isInProgress } from "./case-status";
import { StatusBadge } from "./status-badge";

export function CaseProgress({ caseId, initialStatus }: { caseId: string; initialStatus: CaseStatus }) {
  const router = useRouter();
  const [status, setStatus] = useState(initialStatus);
  const [signedOut, setSignedOut] = useState(false);
  const [attempts, setAttempts] = useState(0);

  useEffect(() => {
    if (!isInProgress(status) || signedOut) return;
    let stopped = false;
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`/cases/live?ids=${caseId}`, { cache: "no-store" });
        if (response.status === 401) return setSignedOut(true);
        const { data } = (await response.json()) as { data: { status: CaseStatus }[] };
        const next = data[0]?.status;
        if (stopped || !next) return;
        setStatus(next);
        if (!isInProgress(next)) router.refresh();
      } catch {
        // Offline for a moment: the next attempt tries again.
      } finally {
        if (!stopped) setAttempts((count) => count + 1);
      }
    }, 1200);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [caseId, status, signedOut, attempts, router]);

  return (
    <div className="case-progress" role="status" aria-live="polite">
      <StatusBadge status={status} />
      {isInProgress(status) ? <span className="muted small">VetDx is reading the notes…</span> : null}
      {signedOut ? (
        <a href={`/signin?error=SessionRequired&callbackUrl=${encodeURIComponent(`/cases/${caseId}`)}`}>
          Your session has expired: sign in again
        </a>
      ) : null}
    </div>
  );
}
