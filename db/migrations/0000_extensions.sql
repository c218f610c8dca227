-- Trigram similarity for catalogue search (symptoms, breeds, conditions).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
