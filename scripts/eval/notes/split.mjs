#!/usr/bin/env node
// Builds the labelled-notes set's two parts from raw/ by the real-world set's id rule
// (../split-parts.mjs). Run after editing raw/: node scripts/eval/notes/split.mjs
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { readBatches, writeParts } from "../split-parts.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const notes = readBatches(here, (n) => n.notes && n.expected?.species);
const { dev, test } = writeParts(here, notes);
console.log(JSON.stringify({ notes: notes.length, dev: dev.length, test: test.length }));
