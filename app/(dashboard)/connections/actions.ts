"use server";
// Revoking an AI client from the Connections page; re-checks the signed-in vet.
import { revalidatePath } from "next/cache";
import { getDb } from "@/db";
import { revokeConnection } from "@/lib/connections/revoke-connection";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { requireVet } from "../session";

export async function revokeConnectionAction(clientId: string): Promise<{ error?: string }> {
  const identity = await requireVet("/connections");
  try {
    await revokeConnection(await getDb(), { veterinarianId: identity.veterinarianId, clientId });
  } catch (error) {
    if (!(error instanceof AppError && error.kind === "not_found")) {
      logger.error({ err: error }, "revoking a connection failed");
      return { error: "The connection could not be revoked; try again" };
    }
  }
  revalidatePath("/connections");
  return {};
}
