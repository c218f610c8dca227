// The SOAP notes last generated for one of the vet's cases; 404 until some are generated.
import type { Database } from "@/db";
import { getCaseRow } from "@/lib/cases/get-case";
import { AppError } from "@/lib/errors";
import type { SoapNotes } from "./schemas";

export async function getSoapNotes(
  db: Database,
  where: { caseId: string; veterinarianId: string },
): Promise<SoapNotes> {
  const row = await getCaseRow(db, where);
  if (row.soapNotes === null) {
    throw new AppError(
      "not_found",
      "This case has no SOAP notes yet; generate them with POST /v1/cases/{id}/soap-notes",
    );
  }
  return row.soapNotes as SoapNotes;
}
