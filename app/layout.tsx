// Root layout: the product stylesheet (public/vetdx.css, shared with the identity provider's pages).
import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";

export const metadata: Metadata = {
  title: { default: "VetDx", template: "%s · VetDx" },
  description: "Veterinary case notes to structured patients, clinical signs, differentials and SOAP notes.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page, the not-found page included, is rendered per request: Next.js puts the request's
  // script nonce on its scripts then (lib/http/security-headers.ts), which a prerendered page lacks.
  await connection();
  return (
    <html lang="en">
      <head>
        {/* eslint-disable-next-line @next/next/no-css-tags -- one stylesheet shared with non-Next pages */}
        <link rel="stylesheet" href="/vetdx.css" />
      </head>
      <body>{children}</body>
    </html>
  );
}
