"use server";
// Case mutations from the dashboard; each re-checks who is signed in and calls one lib/ function.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/db";
import { caseRunner } from "@/inngest/runner";
import { createCase } from "@/lib/cases/create-case";
import { deleteCase } from "@/lib/cases/delete-case";
import { createCaseInput } from "@/lib/cases/schemas";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { generateSoapNotes } from "@/lib/notes/generate-soap-notes";
import { requireVet } from "../session";

export interface FormState {
  error?: string;
  /** What the vet typed, so a refused form keeps it. */
  notes?: string;
}

function messageOf(error: unknown, fallback: string): string {
  if (error instanceof AppError && error.status < 500) return error.message;
  if (error instanceof AppError && error.kind === "unavailable") return error.message;
  logger.error({ err: error }, fallback);
  return fallback;
}

export async function createCaseAction(_previous: FormState, form: FormData): Promise<FormState> {
  const identity = await requireVet("/cases/new");
  const notes = String(form.get("notes") ?? "");
  const parsed = createCaseInput.safeParse({ notes });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Check the notes", notes };
  let id: string;
  try {
    id = (await createCase(await getDb(), identity, parsed.data, caseRunner())).id;
  } catch (error) {
    return { error: messageOf(error, "The case could not be created; try again"), notes };
  }
  revalidatePath("/cases");
  redirect(`/cases/${id}`);
}

export async function deleteCaseAction(caseId: string): Promise<FormState> {
  const identity = await requireVet(`/cases/${caseId}`);
  try {
    await deleteCase(await getDb(), { caseId, veterinarianId: identity.veterinarianId });
  } catch (error) {
    if (!(error instanceof AppError && error.kind === "not_found")) {
      return { error: messageOf(error, "The case could not be deleted; try again") };
    }
  }
  revalidatePath("/cases");
  redirect("/cases?deleted=1");
}

export async function generateSoapNotesAction(caseId: string): Promise<FormState> {
  const identity = await requireVet(`/cases/${caseId}`);
  try {
    await generateSoapNotes(await getDb(), { caseId, veterinarianId: identity.veterinarianId });
  } catch (error) {
    return { error: messageOf(error, "SOAP notes could not be generated; try again") };
  }
  revalidatePath(`/cases/${caseId}`);
  return {};
}
