// RFC 7591 client metadata as VetDx accepts it, for dynamic registrations and client ID metadata
// documents alike: validated, defaults applied, unknown fields dropped.
import { z } from "zod";
import { OAuthServerError } from "./errors";
import { redirectUriProblem } from "./redirect-uris";

export const TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];
const GRANT_TYPES = ["authorization_code", "refresh_token"] as const;

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .optional();

const metadataSchema = z.object({
  redirect_uris: z.array(z.string()).max(20),
  token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS).optional(),
  grant_types: z.array(z.enum(GRANT_TYPES)).min(1).max(2).optional(),
  response_types: z.array(z.literal("code")).min(1).max(1).optional(),
  client_name: text(200).optional(),
  client_uri: optionalUrl,
  logo_uri: optionalUrl,
  tos_uri: optionalUrl,
  policy_uri: optionalUrl,
  scope: text(1000).optional(),
  contacts: z.array(text(320)).max(10).optional(),
  software_id: text(200).optional(),
  software_version: text(100).optional(),
});

export interface NormalisedClientMetadata {
  /** What we store and echo: the accepted fields with defaults applied. */
  metadata: z.infer<typeof metadataSchema> & {
    token_endpoint_auth_method: TokenEndpointAuthMethod;
    grant_types: string[];
    response_types: ["code"];
  };
  redirectUris: string[];
  grantTypes: string[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  clientName: string | null;
}

/**
 * Validates client metadata. Redirect URI problems are `invalid_redirect_uri`, anything else
 * `invalid_client_metadata` (RFC 7591 3.2.2). Defaults: auth method client_secret_basic (RFC 7591),
 * grant types authorization_code and refresh_token (every MCP client expects refresh to work),
 * response types code.
 */
export function normaliseClientMetadata(input: unknown): NormalisedClientMetadata {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new OAuthServerError("invalid_client_metadata", "The client metadata must be a JSON object");
  }
  const redirectUris = (input as { redirect_uris?: unknown }).redirect_uris;
  if (!Array.isArray(redirectUris) || redirectUris.length === 0) {
    throw new OAuthServerError(
      "invalid_redirect_uri",
      "redirect_uris is required: a non-empty array of URIs",
    );
  }
  for (const uri of redirectUris) {
    const problem = typeof uri === "string" ? redirectUriProblem(uri) : "is not a string";
    if (problem)
      throw new OAuthServerError("invalid_redirect_uri", `Redirect URI ${JSON.stringify(uri)} ${problem}`);
  }
  const parsed = metadataSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "metadata";
    throw new OAuthServerError("invalid_client_metadata", `${field}: ${issue?.message ?? "invalid value"}`);
  }
  const grantTypes = [...new Set(parsed.data.grant_types ?? GRANT_TYPES)];
  if (!grantTypes.includes("authorization_code")) {
    throw new OAuthServerError("invalid_client_metadata", "grant_types must include authorization_code");
  }
  const tokenEndpointAuthMethod = parsed.data.token_endpoint_auth_method ?? "client_secret_basic";
  const uniqueRedirectUris = [...new Set(parsed.data.redirect_uris)];
  return {
    metadata: {
      ...parsed.data,
      redirect_uris: uniqueRedirectUris,
      token_endpoint_auth_method: tokenEndpointAuthMethod,
      grant_types: grantTypes,
      response_types: ["code"],
    },
    redirectUris: uniqueRedirectUris,
    grantTypes,
    tokenEndpointAuthMethod,
    clientName: parsed.data.client_name ?? null,
  };
}
