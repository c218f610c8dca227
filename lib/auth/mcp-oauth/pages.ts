// The authorization server's own browser pages (errors and the consent screen), in the product's
// look (the identity provider's page frame and /vetdx.css), never frameable, never cached.
import { escapeHtml } from "@/lib/auth/idp/provider";
import { IDENTITY_PROVIDER_PAGE_HEADERS, renderIdentityProviderPage } from "@/lib/auth/idp/pages";
import {
  ACCESS_DESCRIPTIONS,
  ACCESS_LEVELS,
  SCOPE_DESCRIPTIONS,
  type AccessLevel,
  type Scope,
} from "@/lib/auth/scopes";

export function htmlPageResponse(html: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(html, { status, headers: { ...IDENTITY_PROVIDER_PAGE_HEADERS, ...headers } });
}

export function renderMessagePage(title: string, description: string): string {
  return renderIdentityProviderPage({
    title: escapeHtml(title),
    body: `<p class="alert" role="alert">${escapeHtml(description)}</p>
<p class="muted">Nothing was shared with the app. Go back to it and connect again; if this keeps happening, remove the app's saved VetDx connection and add it again.</p>`,
  });
}

export interface ConsentPageInput {
  requestId: string;
  csrfToken: string;
  clientName: string;
  /** Where the app will receive the answer (the redirect URI's host, or its scheme for native apps). */
  redirectTarget: string;
  /** For client ID metadata documents: the host that vouches for the client's identity. */
  verifiedBy: string | null;
  scopes: readonly Scope[];
  /** The levels the vet may choose (a level the request does not reach is absent) and the default. */
  access: { offered: readonly AccessLevel[]; chosen: AccessLevel };
  signedInAs: string;
}

function accessChoice(access: ConsentPageInput["access"]): string {
  const options = ACCESS_LEVELS.map((level) => {
    const { label, detail } = ACCESS_DESCRIPTIONS[level];
    const offered = access.offered.includes(level);
    const state = `${level === access.chosen ? " checked" : ""}${offered ? "" : " disabled"}`;
    const note = offered ? "" : ` <span class="muted small">(the app did not ask for this)</span>`;
    return `<label class="checkbox"><input type="radio" name="access" value="${level}"${state}> <span><strong>${label}</strong> — ${escapeHtml(detail)}${note}</span></label>`;
  });
  return `<fieldset class="checkboxes" data-testid="consent-access">
<legend>What may it do?</legend>
${options.join("\n")}
</fieldset>`;
}

export function renderConsentPage(input: ConsentPageInput): string {
  const scopes = input.scopes
    .map((scope) => `<li><code>${escapeHtml(scope)}</code> ${escapeHtml(SCOPE_DESCRIPTIONS[scope])}</li>`)
    .join("\n");
  const verified = input.verifiedBy
    ? `<p class="muted small">This app identifies itself through <strong>${escapeHtml(input.verifiedBy)}</strong>.</p>`
    : `<p class="muted small">The app registered this name itself; VetDx has not verified it.</p>`;
  return renderIdentityProviderPage({
    title: "Allow access?",
    body: `<p><strong data-testid="consent-client">${escapeHtml(input.clientName)}</strong> wants to use VetDx on your behalf.</p>
${verified}
<p>It asks to:</p>
<ul class="stack" data-testid="consent-scopes">
${scopes}
</ul>
<p class="muted small">After you allow, you will be sent to <strong data-testid="consent-redirect">${escapeHtml(input.redirectTarget)}</strong>. Signed in as ${escapeHtml(input.signedInAs)}.</p>
<form method="post" action="/consent" class="stack">
<input type="hidden" name="request_id" value="${escapeHtml(input.requestId)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(input.csrfToken)}">
${accessChoice(input.access)}
<div class="actions">
<button type="submit" name="decision" value="deny" class="button secondary">Deny</button>
<button type="submit" name="decision" value="allow" class="button">Allow</button>
</div>
</form>`,
  });
}

/**
 * The way back to the client after /callback. Not a 302: when the sign-in was a form POST at the
 * identity provider, Chrome applies that page's CSP form-action to the whole redirect chain and
 * would block the last hop to the client. A Refresh starts a new navigation; the link is a fallback.
 */
export function continueToClientResponse(location: string): Response {
  const target = new URL(location);
  const label = target.protocol === "http:" || target.protocol === "https:" ? target.host : "your app";
  const html = renderIdentityProviderPage({
    title: "Returning to your app",
    body: `<p>Taking you back to <strong>${escapeHtml(label)}</strong>…</p>
<div class="actions"><a class="button" href="${escapeHtml(location)}">Continue</a></div>`,
  });
  return htmlPageResponse(html, 200, { refresh: `0;url=${location}` });
}
