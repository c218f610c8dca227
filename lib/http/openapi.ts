// GET /v1/openapi.json: the OpenAPI 3.1 description, generated from the same zod schemas the
// handlers parse with. Each resource adds its operations to `paths` below.
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import {
  animalTypeSchema,
  breedSchema,
  breedsQuery,
  diagnosesQuery,
  diagnosisDetailSchema,
  diagnosisSchema,
  genderSchema,
  idParam,
  listOf,
  symptomCategorySchema,
  symptomSchema,
  symptomsQuery,
} from "@/lib/catalogue/schemas";
import { SCOPE_DESCRIPTIONS } from "@/lib/auth/scopes";

const problem = z
  .object({
    type: z.string().describe("Stable URI naming the kind of problem"),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details" });

const bearerError = z
  .object({
    error: z.enum(["invalid_token", "insufficient_scope", "invalid_request"]),
    error_description: z.string(),
  })
  .meta({ id: "BearerError", description: "RFC 6750 error; the WWW-Authenticate header carries the same" });

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

function read(
  summary: string,
  responseSchema: z.ZodType,
  extra: Partial<ZodOpenApiOperationObject> = {},
): ZodOpenApiOperationObject {
  return {
    summary,
    security: [{ bearer: ["vetdx/read"] }],
    ...extra,
    responses: {
      "200": json(responseSchema, "OK"),
      "400": {
        description: "Invalid parameters",
        content: { "application/problem+json": { schema: problem } },
      },
      "401": json(bearerError, "Missing, invalid or expired token"),
      "403": json(bearerError, "The token lacks the scope"),
      "404": { description: "Not found", content: { "application/problem+json": { schema: problem } } },
      ...extra.responses,
    },
  };
}

const idPath = { path: z.object({ id: idParam.shape.id }) };

export const paths: ZodOpenApiPathsObject = {
  "/v1/animal-types": { get: read("List animal types", listOf(animalTypeSchema), { tags: ["Catalogue"] }) },
  "/v1/breeds": {
    get: read("List or search breeds", listOf(breedSchema), {
      tags: ["Catalogue"],
      requestParams: { query: breedsQuery },
    }),
  },
  "/v1/genders": { get: read("List sexes and neuter terms", listOf(genderSchema), { tags: ["Catalogue"] }) },
  "/v1/symptom-categories": {
    get: read("List clinical-sign categories", listOf(symptomCategorySchema), { tags: ["Catalogue"] }),
  },
  "/v1/symptoms": {
    get: read("Search clinical signs", listOf(symptomSchema), {
      tags: ["Catalogue"],
      requestParams: { query: symptomsQuery },
    }),
  },
  "/v1/symptoms/{id}": {
    get: read("Get a clinical sign", symptomSchema, { tags: ["Catalogue"], requestParams: idPath }),
  },
  "/v1/diagnoses": {
    get: read("Search diagnoses (conditions)", listOf(diagnosisSchema), {
      tags: ["Catalogue"],
      requestParams: { query: diagnosesQuery },
    }),
  },
  "/v1/diagnoses/{id}": {
    get: read("Get a diagnosis with its weighted signs", diagnosisDetailSchema, {
      tags: ["Catalogue"],
      requestParams: idPath,
    }),
  },
};

let cached: ReturnType<typeof createDocument> | undefined;

export function openApiDocument(options: { appUrl: string; authUrl: string }) {
  cached ??= createDocument({
    openapi: "3.1.0",
    info: {
      title: "VetDx API",
      version: "1.0.0",
      description:
        "Veterinary case notes to structured patients, clinical signs, differential diagnoses and SOAP notes. " +
        "Authenticate with a bearer JWT from the token issuer (client credentials).",
    },
    servers: [{ url: options.appUrl }],
    components: {
      securitySchemes: {
        bearer: {
          type: "oauth2",
          flows: {
            clientCredentials: { tokenUrl: `${options.authUrl}/oauth2/token`, scopes: SCOPE_DESCRIPTIONS },
          },
        },
      },
    },
    paths,
  });
  return cached;
}
