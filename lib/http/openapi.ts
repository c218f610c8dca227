// GET /v1/openapi.json: the OpenAPI 3.1 description, generated from the same zod schemas the
// handlers parse with and the same scope declarations (operation-scopes.ts) withAuth enforces.
// Each resource adds its operations to `paths` below; `security` comes from OPERATION_SCOPES.
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
import { caseSchema, createCaseInput, listCasesQuery, updateCaseInput } from "@/lib/cases/schemas";
import { selectDiagnosisInput } from "@/lib/cases/select-diagnosis";
import { caseDifferentialsQuery } from "@/lib/diagnosis/case-differentials";
import { differentialsInputSchema, differentialsOutputSchema } from "@/lib/diagnosis/schemas";
import { soapNotesSchema } from "@/lib/notes/schemas";
import { createSessionInput, sessionSchema } from "@/lib/sessions/schemas";
import { ALSO_REQUIRED_SCOPES, OPERATION_SCOPES, type RestOperation } from "./operation-scopes";

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
const caseIdPath = { path: z.object({ id: z.uuid() }) };
const problemContent = { "application/problem+json": { schema: problem } };

function write(summary: string, extra: Partial<ZodOpenApiOperationObject>): ZodOpenApiOperationObject {
  return {
    summary,
    tags: ["Cases"],
    ...extra,
    responses: {
      "400": { description: "Invalid request", content: problemContent },
      "401": json(bearerError, "Missing, invalid or expired token"),
      "403": json(bearerError, "The token lacks the scope"),
      "404": { description: "No such case for this veterinarian", content: problemContent },
      "409": { description: "The case is still being processed", content: problemContent },
      "412": { description: "If-Match did not match the case's ETag", content: problemContent },
      "413": { description: "Body too large", content: problemContent },
      "415": { description: "Body is not JSON", content: problemContent },
      ...extra.responses,
    },
  };
}

const operations: ZodOpenApiPathsObject = {
  "/v1/cases": {
    post: write("Create a case from notes", {
      description:
        "Stores the notes and starts processing; poll GET /v1/cases/{id} until COMPLETED or ERROR.",
      requestBody: { content: { "application/json": { schema: createCaseInput } } },
      responses: { "201": json(caseSchema, "Created, status PENDING") },
    }),
    get: read("List your cases, newest first", listOf(caseSchema), {
      tags: ["Cases"],
      requestParams: { query: listCasesQuery },
    }),
  },
  "/v1/cases/{id}": {
    get: read("Get a case in its current status", caseSchema, {
      tags: ["Cases"],
      description: "Sends an ETag; with If-None-Match answers 304 while the case is unchanged.",
      requestParams: caseIdPath,
      responses: { "304": { description: "Unchanged since the ETag" } },
    }),
    patch: write("Change the patient or the symptom selection", {
      requestParams: caseIdPath,
      requestBody: { content: { "application/json": { schema: updateCaseInput } } },
      responses: { "200": json(caseSchema, "The changed case") },
    }),
    delete: write("Delete a case", {
      requestParams: caseIdPath,
      responses: { "204": { description: "Deleted" } },
    }),
  },
  "/v1/cases/{id}/differentials": {
    get: read("Rank differential diagnoses for a case", differentialsOutputSchema, {
      tags: ["Diagnosis"],
      description:
        "Ranks the species' conditions from the case: selected signs present, rejected and denied signs absent, " +
        "breed, sex, neuter status and age where known. 400 when the patient's species is not set.",
      requestParams: { ...caseIdPath, query: caseDifferentialsQuery },
    }),
  },
  "/v1/differentials": {
    post: read("Rank differential diagnoses from signalment and signs (no case)", differentialsOutputSchema, {
      tags: ["Diagnosis"],
      requestParams: { query: caseDifferentialsQuery },
      requestBody: { content: { "application/json": { schema: differentialsInputSchema } } },
    }),
  },
  "/v1/sessions": {
    post: {
      summary: "Create a diagnostics component session for an iframe",
      tags: ["Components"],
      description:
        "Returns a short-lived, unguessable session URL to frame. The frame is allowed for parent_origin, or " +
        "else for the client's registered embed origins; with case_id the component loads and saves that case. " +
        "Besides vetdx/tools the token needs a scope that reads what the session shows: vetdx/read or " +
        "vetdx/user.read with case_id, vetdx/read without (the catalogue).",
      requestBody: { content: { "application/json": { schema: createSessionInput } } },
      responses: {
        "201": json(sessionSchema, "Created"),
        "400": {
          description: "Invalid request, or no origin may frame the component",
          content: problemContent,
        },
        "401": json(bearerError, "Missing, invalid or expired token"),
        "403": json(bearerError, "The token lacks the scope"),
        "404": { description: "No such case for this veterinarian", content: problemContent },
        "413": { description: "Body too large", content: problemContent },
        "415": { description: "Body is not JSON", content: problemContent },
      },
    },
  },
  "/v1/cases/{id}/diagnosis": {
    put: write("Set the working diagnosis", {
      description: "Replaces selected_diagnoses with the condition; it must be one of the patient's species.",
      requestParams: caseIdPath,
      requestBody: { content: { "application/json": { schema: selectDiagnosisInput } } },
      responses: { "200": json(caseSchema, "The changed case") },
    }),
  },
  "/v1/cases/{id}/soap-notes": {
    post: write("Generate SOAP notes and store them on the case", {
      description:
        "Written from the notes, patient, signs, working diagnosis and differentials: by the configured model when " +
        "AI_MODEL is set, else (or when the model fails) by the local generator; `generator` says which.",
      requestParams: caseIdPath,
      responses: { "200": json(soapNotesSchema, "The generated notes") },
    }),
    get: read("Get the case's stored SOAP notes", soapNotesSchema, {
      tags: ["Cases"],
      requestParams: caseIdPath,
    }),
  },
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

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/**
 * The security requirements of an operation: one alternative per scope that withAuth accepts (the
 * scopes in one requirement are all required), each with one of the scopes its lib/ function also
 * requires, if any.
 */
function securityOf(operation: RestOperation) {
  const also = ALSO_REQUIRED_SCOPES[operation];
  return OPERATION_SCOPES[operation].flatMap((scope) =>
    also ? also.map((extra) => ({ bearer: [scope, extra] })) : [{ bearer: [scope] }],
  );
}

/** `operations` with each one's security from OPERATION_SCOPES; both must name the same operations. */
function withSecurity(documented: ZodOpenApiPathsObject): ZodOpenApiPathsObject {
  const declared = new Set<string>(Object.keys(OPERATION_SCOPES));
  const result: ZodOpenApiPathsObject = {};
  for (const [path, item] of Object.entries(documented)) {
    result[path] = { ...item };
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const key = `${method.toUpperCase()} ${path}`;
      if (!declared.delete(key)) throw new Error(`${key} has no entry in OPERATION_SCOPES`);
      result[path][method] = { ...operation, security: securityOf(key as RestOperation) };
    }
  }
  if (declared.size > 0) throw new Error(`Undocumented operations: ${[...declared].join(", ")}`);
  return result;
}

export const paths = withSecurity(operations);

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
