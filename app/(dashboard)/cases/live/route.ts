// GET /cases/live?ids=… — the dashboard's live case rows: status and summary of some of the signed-in
// vet's cases, polled while the pipeline runs. 401 once the session has expired.
import { NextResponse } from "next/server";
import { getDb } from "@/db";
import { getDashboardIdentity } from "@/lib/auth/dashboard-auth";
import { searchCases } from "@/lib/cases/search-cases";

export const dynamic = "force-dynamic";
const NO_STORE = { "cache-control": "no-store" };

export async function GET(request: Request) {
  const identity = await getDashboardIdentity();
  if (!identity) return NextResponse.json({ error: "signed_out" }, { status: 401, headers: NO_STORE });
  const ids = (new URL(request.url).searchParams.get("ids") ?? "").split(",").filter(Boolean).slice(0, 100);
  const { data } = await searchCases(await getDb(), {
    veterinarianId: identity.veterinarianId,
    ids,
    pageSize: 100,
  });
  return NextResponse.json(
    {
      data: data.map((row) => ({
        id: row.id,
        status: row.status,
        patient_name: row.patientName,
        animal_type_id: row.animalTypeId,
        error_message: row.error?.message ?? null,
      })),
    },
    { headers: NO_STORE },
  );
}
