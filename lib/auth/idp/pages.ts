// HTML for the identity provider's own pages (sign-in, sign-out, errors), in the product's look:
// the same stylesheet and fonts as the dashboard (public/vetdx.css).

export const IDENTITY_PROVIDER_PAGE_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy":
    "default-src 'none'; style-src 'self'; font-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

export function renderIdentityProviderPage({ title, body }: { title: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · VetDx</title>
<link rel="stylesheet" href="/vetdx.css">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
</head>
<body class="auth-page">
<main class="auth-card" aria-labelledby="page-title">
<div class="brand" aria-hidden="true"><img src="/favicon.svg" alt="" width="28" height="28"><span>VetDx</span></div>
<h1 id="page-title">${title}</h1>
${body}
</main>
</body>
</html>`;
}
