// Reading the urlencoded bodies of /token and the consent form: size-limited, no repeated parameters.
import { containsNul, NUL_MESSAGE } from "@/lib/errors";
import { OAuthServerError } from "./errors";

const MAX_FORM_BYTES = 8 * 1024;

/** Reads an application/x-www-form-urlencoded body (8 KB at most); repeated parameters are refused. */
export async function readUrlEncodedForm(request: Request): Promise<URLSearchParams> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType)) {
    throw new OAuthServerError("invalid_request", "Send the request as application/x-www-form-urlencoded");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_FORM_BYTES)
    throw new OAuthServerError("invalid_request", "The request body is too large");
  const body = await request.arrayBuffer();
  if (body.byteLength > MAX_FORM_BYTES)
    throw new OAuthServerError("invalid_request", "The request body is too large");
  const form = new URLSearchParams(new TextDecoder().decode(body));
  if (containsNul([...form.entries()])) throw new OAuthServerError("invalid_request", NUL_MESSAGE);
  for (const key of new Set(form.keys())) {
    if (form.getAll(key).length > 1)
      throw new OAuthServerError("invalid_request", `Parameter ${key} is repeated`);
  }
  return form;
}
