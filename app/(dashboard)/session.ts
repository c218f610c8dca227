// The signed-in vet of a dashboard request, once per request; signed-out visitors (or an expired
// session) go to /signin and come back to where they were.
import "server-only";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getDashboardIdentity } from "@/lib/auth/dashboard-auth";
import type { Identity } from "@/lib/auth/identity";

export const currentVet = cache(getDashboardIdentity);

export function signInUrl(callbackPath: string): string {
  const params = new URLSearchParams({ error: "SessionRequired", callbackUrl: callbackPath });
  return `/signin?${params.toString()}`;
}

export async function requireVet(callbackPath = "/cases"): Promise<Identity> {
  const identity = await currentVet();
  if (!identity) redirect(signInUrl(callbackPath));
  return identity;
}

/** Operators' pages do not exist for vets without the admin role. */
export async function requireAdmin(callbackPath = "/operators"): Promise<Identity> {
  const identity = await requireVet(callbackPath);
  if (identity.role !== "admin") notFound();
  return identity;
}
