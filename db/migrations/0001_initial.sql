CREATE TABLE "machine_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"veterinarian_id" uuid NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text,
	"scopes" text[] NOT NULL,
	"embed_origins" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"secret_rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "veterinarians" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"email" text,
	"name" text NOT NULL,
	"role" text DEFAULT 'vet' NOT NULL,
	"password_hash" text,
	"external_subject" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "app_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_provider_payloads" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "identity_provider_payloads_pk" PRIMARY KEY("model","id")
);
--> statement-breakpoint
CREATE TABLE "oauth_authorization_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"grant_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"code_challenge_method" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_authorization_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"state" text,
	"scopes" text[] NOT NULL,
	"resource" text,
	"code_challenge" text NOT NULL,
	"code_challenge_method" text NOT NULL,
	"upstream" jsonb NOT NULL,
	"veterinarian_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"secret_hash" text,
	"token_endpoint_auth_method" text NOT NULL,
	"client_name" text,
	"redirect_uris" text[] NOT NULL,
	"grant_types" text[] NOT NULL,
	"metadata" jsonb NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"metadata_fetched_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "oauth_consents" (
	"veterinarian_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"scopes" text[] NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"veterinarian_id" uuid NOT NULL,
	"scopes" text[] NOT NULL,
	"resource" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "oauth_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"grant_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"veterinarian_id" uuid NOT NULL,
	"scopes" text[] NOT NULL,
	"resource" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"veterinarian_id" uuid NOT NULL,
	"notes" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"ai_extracted_patient" jsonb,
	"suggested_symptoms" jsonb,
	"raw_ai_response" jsonb,
	"sanitized_symptoms" jsonb,
	"patient" jsonb,
	"selected_symptoms" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"de_selected_symptoms" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attachment_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"selected_diagnoses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"soap_notes" jsonb,
	"error" jsonb,
	"processing_attempts" integer DEFAULT 0 NOT NULL,
	"processing_claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "component_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"component" text NOT NULL,
	"veterinarian_id" uuid NOT NULL,
	"case_id" uuid,
	"allowed_origins" text[] NOT NULL,
	"client_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "animal_types" (
	"id" integer PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"synonyms" text[] NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "animal_types_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "breeds" (
	"id" integer PRIMARY KEY NOT NULL,
	"animal_type_id" integer NOT NULL,
	"name" text NOT NULL,
	"synonyms" text[] NOT NULL,
	"mixed" boolean DEFAULT false NOT NULL,
	"cross_of_breed_id" integer,
	"vbo_id" text,
	"source" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "condition_signs" (
	"condition_id" integer NOT NULL,
	"symptom_id" integer NOT NULL,
	"weight" real NOT NULL,
	CONSTRAINT "condition_signs_condition_id_symptom_id_pk" PRIMARY KEY("condition_id","symptom_id")
);
--> statement-breakpoint
CREATE TABLE "condition_species" (
	"condition_id" integer NOT NULL,
	"animal_type_id" integer NOT NULL,
	CONSTRAINT "condition_species_condition_id_animal_type_id_pk" PRIMARY KEY("condition_id","animal_type_id")
);
--> statement-breakpoint
CREATE TABLE "conditions" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"synonyms" text[] NOT NULL,
	"description" text NOT NULL,
	"prevalence" text NOT NULL,
	"mondo_id" text,
	"risk_factors" jsonb,
	"source" text NOT NULL,
	"retired" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gender_terms" (
	"id" serial PRIMARY KEY NOT NULL,
	"term" text NOT NULL,
	"gender_id" integer NOT NULL,
	"neutered" boolean,
	"animal_type_id" integer
);
--> statement-breakpoint
CREATE TABLE "genders" (
	"id" integer PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"fhir_code" text NOT NULL,
	CONSTRAINT "genders_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "seed_state" (
	"name" text PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "symptom_categories" (
	"id" integer PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "symptom_categories_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "symptom_terms" (
	"symptom_id" integer NOT NULL,
	"term" text NOT NULL,
	"is_name" boolean NOT NULL,
	CONSTRAINT "symptom_terms_symptom_id_term_pk" PRIMARY KEY("symptom_id","term")
);
--> statement-breakpoint
CREATE TABLE "symptoms" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"category_id" integer NOT NULL,
	"synonyms" text[] NOT NULL,
	"animal_type_ids" integer[],
	"source" text NOT NULL,
	"retired" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "machine_clients" ADD CONSTRAINT "machine_clients_veterinarian_id_veterinarians_id_fk" FOREIGN KEY ("veterinarian_id") REFERENCES "public"."veterinarians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_authorization_codes" ADD CONSTRAINT "oauth_authorization_codes_grant_id_oauth_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_authorization_requests" ADD CONSTRAINT "oauth_authorization_requests_client_id_oauth_clients_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_authorization_requests" ADD CONSTRAINT "oauth_authorization_requests_veterinarian_id_veterinarians_id_fk" FOREIGN KEY ("veterinarian_id") REFERENCES "public"."veterinarians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_consents" ADD CONSTRAINT "oauth_consents_veterinarian_id_veterinarians_id_fk" FOREIGN KEY ("veterinarian_id") REFERENCES "public"."veterinarians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_consents" ADD CONSTRAINT "oauth_consents_client_id_oauth_clients_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_client_id_oauth_clients_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_veterinarian_id_veterinarians_id_fk" FOREIGN KEY ("veterinarian_id") REFERENCES "public"."veterinarians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_grant_id_oauth_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_veterinarian_id_veterinarians_id_fk" FOREIGN KEY ("veterinarian_id") REFERENCES "public"."veterinarians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "component_sessions" ADD CONSTRAINT "component_sessions_veterinarian_id_veterinarians_id_fk" FOREIGN KEY ("veterinarian_id") REFERENCES "public"."veterinarians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "component_sessions" ADD CONSTRAINT "component_sessions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "breeds" ADD CONSTRAINT "breeds_animal_type_id_animal_types_id_fk" FOREIGN KEY ("animal_type_id") REFERENCES "public"."animal_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condition_signs" ADD CONSTRAINT "condition_signs_condition_id_conditions_id_fk" FOREIGN KEY ("condition_id") REFERENCES "public"."conditions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condition_signs" ADD CONSTRAINT "condition_signs_symptom_id_symptoms_id_fk" FOREIGN KEY ("symptom_id") REFERENCES "public"."symptoms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condition_species" ADD CONSTRAINT "condition_species_condition_id_conditions_id_fk" FOREIGN KEY ("condition_id") REFERENCES "public"."conditions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condition_species" ADD CONSTRAINT "condition_species_animal_type_id_animal_types_id_fk" FOREIGN KEY ("animal_type_id") REFERENCES "public"."animal_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gender_terms" ADD CONSTRAINT "gender_terms_gender_id_genders_id_fk" FOREIGN KEY ("gender_id") REFERENCES "public"."genders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gender_terms" ADD CONSTRAINT "gender_terms_animal_type_id_animal_types_id_fk" FOREIGN KEY ("animal_type_id") REFERENCES "public"."animal_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "symptom_terms" ADD CONSTRAINT "symptom_terms_symptom_id_symptoms_id_fk" FOREIGN KEY ("symptom_id") REFERENCES "public"."symptoms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "symptoms" ADD CONSTRAINT "symptoms_category_id_symptom_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."symptom_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "machine_clients_veterinarian_idx" ON "machine_clients" USING btree ("veterinarian_id");--> statement-breakpoint
CREATE UNIQUE INDEX "veterinarians_email_unique" ON "veterinarians" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "veterinarians_external_subject_unique" ON "veterinarians" USING btree ("external_subject");--> statement-breakpoint
CREATE INDEX "veterinarians_kind_idx" ON "veterinarians" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "identity_provider_payloads_grant_idx" ON "identity_provider_payloads" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "identity_provider_payloads_uid_idx" ON "identity_provider_payloads" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "identity_provider_payloads_expires_idx" ON "identity_provider_payloads" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oauth_authorization_requests_expires_idx" ON "oauth_authorization_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_consents_vet_client_unique" ON "oauth_consents" USING btree ("veterinarian_id","client_id");--> statement-breakpoint
CREATE INDEX "oauth_grants_vet_idx" ON "oauth_grants" USING btree ("veterinarian_id");--> statement-breakpoint
CREATE INDEX "oauth_tokens_grant_idx" ON "oauth_tokens" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_tokens_expires_idx" ON "oauth_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "cases_vet_created_idx" ON "cases" USING btree ("veterinarian_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "cases_status_idx" ON "cases" USING btree ("status");--> statement-breakpoint
CREATE INDEX "component_sessions_expires_idx" ON "component_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "breeds_animal_type_idx" ON "breeds" USING btree ("animal_type_id");--> statement-breakpoint
CREATE INDEX "breeds_name_trgm_idx" ON "breeds" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "condition_signs_symptom_idx" ON "condition_signs" USING btree ("symptom_id");--> statement-breakpoint
CREATE INDEX "condition_species_animal_idx" ON "condition_species" USING btree ("animal_type_id");--> statement-breakpoint
CREATE INDEX "conditions_name_trgm_idx" ON "conditions" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "gender_terms_term_species_unique" ON "gender_terms" USING btree ("term",coalesce("animal_type_id", 0));--> statement-breakpoint
CREATE INDEX "symptom_terms_trgm_idx" ON "symptom_terms" USING gin ("term" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "symptoms_name_unique" ON "symptoms" USING btree (lower("name"));