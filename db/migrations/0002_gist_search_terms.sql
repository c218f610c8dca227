CREATE TABLE "breed_terms" (
	"breed_id" integer NOT NULL,
	"animal_type_id" integer NOT NULL,
	"term" text NOT NULL,
	"is_name" boolean NOT NULL,
	CONSTRAINT "breed_terms_breed_id_term_pk" PRIMARY KEY("breed_id","term")
);
--> statement-breakpoint
CREATE TABLE "condition_terms" (
	"condition_id" integer NOT NULL,
	"term" text NOT NULL,
	"is_name" boolean NOT NULL,
	CONSTRAINT "condition_terms_condition_id_term_pk" PRIMARY KEY("condition_id","term")
);
--> statement-breakpoint
DROP INDEX "breeds_name_trgm_idx";--> statement-breakpoint
DROP INDEX "conditions_name_trgm_idx";--> statement-breakpoint
DROP INDEX "symptom_terms_trgm_idx";--> statement-breakpoint
ALTER TABLE "breed_terms" ADD CONSTRAINT "breed_terms_breed_id_breeds_id_fk" FOREIGN KEY ("breed_id") REFERENCES "public"."breeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condition_terms" ADD CONSTRAINT "condition_terms_condition_id_conditions_id_fk" FOREIGN KEY ("condition_id") REFERENCES "public"."conditions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "breed_terms_trgm_idx" ON "breed_terms" USING gist ("term" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "condition_terms_trgm_idx" ON "condition_terms" USING gist ("term" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "symptom_terms_trgm_idx" ON "symptom_terms" USING gist ("term" gist_trgm_ops);