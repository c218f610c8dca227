// /components/diagnostics/{sessionId} — the embeddable diagnostics component (spec 4.2). The session
// id is the credential; server.ts sets frame-ancestors, Referrer-Policy and 404/410 for this page.
// A session whose creator's access was withdrawn shows no case; a read-only one offers no edits.
import type { Metadata } from "next";
import { getDb } from "@/db";
import { listAnimalTypes } from "@/lib/catalogue/list-animal-types";
import { listGenders } from "@/lib/catalogue/list-genders";
import { getCaseRow } from "@/lib/cases/get-case";
import { AppError } from "@/lib/errors";
import { componentCaseView, type ComponentCaseView } from "@/lib/sessions/component-case-view";
import { isReadOnly } from "@/lib/sessions/component-session";
import { findComponentSession } from "@/lib/sessions/find-session";
import { DiagnosticsApp } from "./_components/diagnostics-app";
import { SessionMessage } from "./_components/session-message";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Diagnostics",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

export default async function DiagnosticsPage({ params }: { params: Promise<{ sessionId: string }> }) {
  const { sessionId } = await params;
  const db = await getDb();
  const lookup = await findComponentSession(db, sessionId);
  if (lookup.state !== "active") return <SessionMessage state={lookup.state} />;
  const { session } = lookup;
  const readOnly = isReadOnly(session.scopes);

  let view: ComponentCaseView | null = null;
  if (session.caseId) {
    try {
      view = await componentCaseView(
        db,
        await getCaseRow(db, { caseId: session.caseId, veterinarianId: session.veterinarianId }),
        { readOnly },
      );
    } catch (error) {
      if (error instanceof AppError && error.kind === "not_found") return <SessionMessage state="unknown" />;
      throw error;
    }
  }
  const [animalTypes, genders] = await Promise.all([listAnimalTypes(db), listGenders(db)]);
  return (
    <DiagnosticsApp
      sessionId={sessionId}
      allowedOrigins={session.allowedOrigins}
      animalTypes={animalTypes.map(({ id, name }) => ({ id, name }))}
      genders={genders.map(({ id, name }) => ({ id, name }))}
      initialView={view}
      readOnly={readOnly}
    />
  );
}
