"use client";
// The patient: species, breed, sex, neuter status, and (for a case) name and weight. Each change is
// handed to `onChange` at once (selects on change, text fields when they lose focus or on Enter).
import { useState, type KeyboardEvent } from "react";
import type { Option } from "./component-api";
import type { ComponentBackend } from "./component-backend";
import styles from "./diagnostics.module.css";

export interface PatientValues {
  animal_type_id: number | null;
  breed: Option | null;
  gender_id: number | null;
  neutered: boolean | null;
  name?: string | null;
  weight_kg?: number | null;
}

export type PatientChange = Partial<{
  animal_type_id: number | null;
  breed_id: number | null;
  gender_id: number | null;
  neutered: boolean | null;
  name: string | null;
  weight_kg: number | null;
}>;

interface Props {
  searchBreeds: ComponentBackend["searchBreeds"];
  patient: PatientValues;
  animalTypes: Option[];
  genders: Option[];
  disabled: boolean;
  withIdentity: boolean;
  onChange: (change: PatientChange, breed?: Option | null) => void;
}

const blurOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key === "Enter") event.currentTarget.blur();
};

function BreedPicker({
  searchBreeds,
  animalTypeId,
  breed,
  disabled,
  onPick,
}: {
  searchBreeds: ComponentBackend["searchBreeds"];
  animalTypeId: number | null;
  breed: Option | null;
  disabled: boolean;
  onPick: (breed: Option | null) => void;
}) {
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<Option[]>([]);
  const search = async (q: string) => {
    setQuery(q);
    if (q.trim().length < 2 || animalTypeId === null) return setResults([]);
    try {
      setResults(await searchBreeds({ q, animalTypeId }));
    } catch {
      setResults([]);
    }
  };
  return (
    <div className={styles.field}>
      <label htmlFor="breed-search">Breed{breed ? `: ${breed.name}` : ""}</label>
      <input
        id="breed-search"
        type="search"
        placeholder={animalTypeId === null ? "Choose the species first" : "Search breeds"}
        value={query}
        disabled={disabled || animalTypeId === null}
        onChange={(event) => void search(event.target.value)}
        autoComplete="off"
      />
      {results.length > 0 ? (
        <ul className={styles.list} aria-label="Breeds found">
          {results.map((result) => (
            <li key={result.id}>
              <button
                type="button"
                className={styles.button}
                onClick={() => {
                  onPick(result);
                  setQuery("");
                  setResults([]);
                }}
              >
                {result.name}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {breed && !disabled ? (
        <button
          type="button"
          className={styles.button}
          onClick={() => onPick(null)}
          aria-label={`Clear breed ${breed.name}`}
        >
          Clear breed
        </button>
      ) : null}
    </div>
  );
}

export function PatientForm({
  searchBreeds,
  patient,
  animalTypes,
  genders,
  disabled,
  withIdentity,
  onChange,
}: Props) {
  const neuteredValue = patient.neutered === null ? "" : patient.neutered ? "yes" : "no";
  return (
    <section className={styles.panel} aria-labelledby="patient-heading">
      <h2 id="patient-heading">Patient</h2>
      <div className={styles.form}>
        {withIdentity ? (
          <div className={styles.field}>
            <label htmlFor="patient-name">Name</label>
            <input
              id="patient-name"
              key={`name-${patient.name ?? ""}`}
              defaultValue={patient.name ?? ""}
              maxLength={100}
              disabled={disabled}
              onKeyDown={blurOnEnter}
              onBlur={(event) => {
                const value = event.target.value.trim() || null;
                if (value !== (patient.name ?? null)) onChange({ name: value });
              }}
            />
          </div>
        ) : null}
        <div className={styles.field}>
          <label htmlFor="patient-species">Species</label>
          <select
            id="patient-species"
            value={patient.animal_type_id ?? ""}
            disabled={disabled}
            onChange={(event) => {
              const value = event.target.value ? Number(event.target.value) : null;
              // A breed belongs to one species: a new species clears it.
              onChange({ animal_type_id: value, breed_id: null }, null);
            }}
          >
            <option value="">Not set</option>
            {animalTypes.map((type) => (
              <option key={type.id} value={type.id}>
                {type.name}
              </option>
            ))}
          </select>
        </div>
        <BreedPicker
          searchBreeds={searchBreeds}
          animalTypeId={patient.animal_type_id}
          breed={patient.breed}
          disabled={disabled}
          onPick={(breed) => onChange({ breed_id: breed?.id ?? null }, breed)}
        />
        <div className={styles.field}>
          <label htmlFor="patient-sex">Sex</label>
          <select
            id="patient-sex"
            value={patient.gender_id ?? ""}
            disabled={disabled}
            onChange={(event) =>
              onChange({ gender_id: event.target.value ? Number(event.target.value) : null })
            }
          >
            <option value="">Not set</option>
            {genders.map((gender) => (
              <option key={gender.id} value={gender.id}>
                {gender.name}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor="patient-neutered">Neutered</label>
          <select
            id="patient-neutered"
            value={neuteredValue}
            disabled={disabled}
            onChange={(event) =>
              onChange({ neutered: event.target.value === "" ? null : event.target.value === "yes" })
            }
          >
            <option value="">Not known</option>
            <option value="yes">Neutered</option>
            <option value="no">Entire</option>
          </select>
        </div>
        {withIdentity ? (
          <div className={styles.field}>
            <label htmlFor="patient-weight">Weight (kg)</label>
            <input
              id="patient-weight"
              key={`weight-${patient.weight_kg ?? ""}`}
              type="number"
              inputMode="decimal"
              min="0.01"
              max="2000"
              step="0.01"
              defaultValue={patient.weight_kg ?? ""}
              disabled={disabled}
              onKeyDown={blurOnEnter}
              onBlur={(event) => {
                const raw = event.target.value.trim();
                const value = raw === "" ? null : Number(raw);
                if (value !== null && !(value > 0 && value <= 2000)) return;
                if (value !== (patient.weight_kg ?? null)) onChange({ weight_kg: value });
              }}
            />
          </div>
        ) : null}
      </div>
    </section>
  );
}
