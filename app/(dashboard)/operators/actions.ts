"use server";
// Operator actions (admin role): the admin CLI's machine-client and veterinarian operations, each
// re-checking that the signed-in vet is still an administrator.
import { revalidatePath } from "next/cache";
import { getDb } from "@/db";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import {
  createMachineClient,
  revokeMachineClient,
  rotateMachineClientSecret,
} from "@/lib/machine-clients/machine-clients";
import { createVeterinarian } from "@/lib/veterinarians/create-veterinarian";
import { requireAdmin } from "../session";

export interface OperatorResult {
  error?: string;
  reveal?: { label: string; value: string }[];
}

function failure(error: unknown, fallback: string): OperatorResult {
  if (error instanceof AppError && error.status < 500) {
    const fields = error.details.errors?.map((field) => `${field.path}: ${field.message}`).join("; ");
    return { error: fields ? `${error.message} (${fields})` : error.message };
  }
  logger.error({ err: error }, fallback);
  return { error: fallback };
}

const lines = (value: FormDataEntryValue | null) =>
  String(value ?? "")
    .split(/[\s,]+/)
    .map((line) => line.trim())
    .filter(Boolean);

export async function createMachineClientAction(
  _previous: OperatorResult,
  form: FormData,
): Promise<OperatorResult> {
  await requireAdmin();
  try {
    const client = await createMachineClient(await getDb(), {
      name: String(form.get("name") ?? ""),
      scopes: form.getAll("scopes").map(String) as never,
      embedOrigins: lines(form.get("embed_origins")),
    });
    revalidatePath("/operators");
    return {
      reveal: [
        { label: "Client ID", value: client.clientId },
        { label: "Client secret", value: client.clientSecret },
      ],
    };
  } catch (error) {
    return failure(error, "The client could not be created; try again");
  }
}

export async function rotateMachineClientSecretAction(clientId: string): Promise<OperatorResult> {
  await requireAdmin();
  try {
    const client = await rotateMachineClientSecret(await getDb(), clientId);
    revalidatePath("/operators");
    return { reveal: [{ label: "New client secret", value: client.clientSecret }] };
  } catch (error) {
    return failure(error, "The secret could not be rotated; try again");
  }
}

export async function revokeMachineClientAction(clientId: string): Promise<OperatorResult> {
  await requireAdmin();
  try {
    await revokeMachineClient(await getDb(), clientId);
    revalidatePath("/operators");
    return {};
  } catch (error) {
    return failure(error, "The client could not be revoked; try again");
  }
}

export async function createVeterinarianAction(
  _previous: OperatorResult,
  form: FormData,
): Promise<OperatorResult> {
  await requireAdmin();
  try {
    const password = String(form.get("password") ?? "");
    const vet = await createVeterinarian(await getDb(), {
      email: String(form.get("email") ?? "").trim(),
      name: String(form.get("name") ?? ""),
      password: password || undefined,
      role: form.get("admin") === "on" ? "admin" : "vet",
    });
    revalidatePath("/operators");
    return {
      reveal: [
        { label: "Email", value: vet.email },
        ...(vet.generatedPassword ? [{ label: "Password", value: vet.generatedPassword }] : []),
      ],
    };
  } catch (error) {
    return failure(error, "The veterinarian could not be created; try again");
  }
}
