// /api/auth/* — next-auth's sign-in, callback, session and sign-out endpoints for the dashboard.
import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/dashboard-auth";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: Context): Promise<Response> {
  return NextAuth(request as never, context as never, await getAuthOptions());
}

export { handler as GET, handler as POST };
