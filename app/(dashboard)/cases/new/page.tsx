// /cases/new — paste or type case notes; submitting creates the case and opens it.
import type { Metadata } from "next";
import { MAX_NOTES_LENGTH } from "@/lib/cases/schemas";
import { NewCaseForm } from "../../_components/new-case-form";
import { requireVet } from "../../session";
import { createCaseAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New case" };

export default async function NewCasePage() {
  await requireVet("/cases/new");
  return (
    <>
      <h1>New case</h1>
      <p className="muted">
        VetDx extracts the patient and clinical signs, then ranks differentials; this takes a few seconds and
        you can watch it on the case.
      </p>
      <NewCaseForm action={createCaseAction} maxLength={MAX_NOTES_LENGTH} />
    </>
  );
}
