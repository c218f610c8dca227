#!/usr/bin/env node
// `node scripts/eval/rerank-lab.mjs <dump.json> [--lambda=0.003] [--lobo=1] [--holdout=<id regex>]
// [--eval=<dump.json>] [--features=a,b,...]`: a second-stage re-ranker, for experiments only
// (docs/decisions.md, session 17). Reads the candidates scripts/eval/rerank-dump.ts wrote (top 40
// per case with their score parts and how they account for the findings), fits a conditional logit
// over them (gold against the other candidates; L2 towards the first stage's own weights) and prints
// top-1/3/10 and MRR: on the training file by 5-fold cross-validation, leave-one-batch-out (--lobo,
// batches by id prefix), on held-out ids (--holdout) or on another dump (--eval). Features beyond
// the score parts: frac, expl, findings, unexpl, card, signs, direct, tier, species, rank.
import { readFileSync } from "node:fs";
const [trainFile, ...rest] = process.argv.slice(2);
const opts = Object.fromEntries(rest.filter((a) => a.startsWith("--")).map((a) => a.slice(2).split("=")));
const lambda = Number(opts.lambda ?? 1);
const folds = Number(opts.folds ?? 5);
const evalFile = opts.eval;
const PARTS = ["prior", "risk", "context", "present", "absent", "documentation", "text", "richness"];
const TIERS = ["very_common", "common", "uncommon", "rare"];
const use = (opts.features ?? "frac,expl,unexpl,card,signs,direct,tier,species,rank,findings").split(",");
function vec(c, i) {
  const x = PARTS.map((p) => c.parts[p]);
  if (use.includes("frac")) x.push(c.present ? c.explained / c.present : 0);
  if (use.includes("expl")) x.push(c.explained);
  if (use.includes("findings")) x.push(c.explainedFindings);
  if (use.includes("unexpl")) x.push(c.unexplainedInformative);
  if (use.includes("card")) x.push(c.cardinal ? c.cardinalPresent / c.cardinal : 0, c.cardinal === 0 ? 1 : 0);
  if (use.includes("signs")) x.push(Math.log1p(c.signs));
  if (use.includes("direct")) x.push(c.directWeight);
  if (use.includes("tier")) for (const t of TIERS) x.push(c.prevalence === t ? 1 : 0);
  if (use.includes("species")) x.push(Math.log1p(c.species));
  if (use.includes("rank")) x.push(Math.log(i + 1));
  return x;
}
const load = (f) =>
  JSON.parse(readFileSync(f, "utf8")).map((k) => ({
    ...k,
    X: k.candidates.map(vec),
    g: k.candidates.findIndex((c) => c.gold),
  }));
let train = load(trainFile);
let holdout = [];
if (opts.holdout) {
  const re = new RegExp(opts.holdout);
  holdout = train.filter((k) => re.test(k.id));
  train = train.filter((k) => !re.test(k.id));
}
const D = train[0].X[0].length;
const w0 = Array.from({ length: D }, (_, j) => (j < PARTS.length ? 1 : 0));
const hash = (s) => [...s].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7);
function fit(cases) {
  const w = [...w0];
  const m = new Array(D).fill(0),
    v = new Array(D).fill(0);
  const usable = cases.filter((k) => k.g >= 0);
  for (let it = 1; it <= 300; it++) {
    const grad = w.map((wj, j) => lambda * (wj - w0[j]));
    for (const k of usable) {
      const s = k.X.map((x) => x.reduce((a, xj, j) => a + xj * w[j], 0));
      const mx = Math.max(...s);
      const e = s.map((z) => Math.exp(z - mx));
      const Z = e.reduce((a, b) => a + b, 0);
      for (let i = 0; i < k.X.length; i++) {
        const p = e[i] / Z - (i === k.g ? 1 : 0);
        for (let j = 0; j < D; j++) grad[j] += (p * k.X[i][j]) / usable.length;
      }
    }
    for (let j = 0; j < D; j++) {
      m[j] = 0.9 * m[j] + 0.1 * grad[j];
      v[j] = 0.999 * v[j] + 0.001 * grad[j] ** 2;
      w[j] -= (0.05 * (m[j] / (1 - 0.9 ** it))) / (Math.sqrt(v[j] / (1 - 0.999 ** it)) + 1e-8);
    }
  }
  return w;
}
function rankOf(k, w) {
  if (k.goldRank === 0) return 0;
  if (k.g < 0) return k.goldRank;
  const s = k.X.map((x) => x.reduce((a, xj, j) => a + xj * w[j], 0));
  return 1 + s.filter((z, i) => i !== k.g && z > s[k.g]).length;
}
function metrics(cases, rank) {
  let t1 = 0,
    t3 = 0,
    t10 = 0,
    rr = 0;
  for (const k of cases) {
    const r = rank(k);
    if (r >= 1) {
      if (r === 1) t1++;
      if (r <= 3) t3++;
      if (r <= 10) t10++;
      if (r <= 20) rr += 1 / r;
    }
  }
  const n = cases.length,
    f = (x) => Math.round((x / n) * 1000) / 1000;
  return { n, top1: f(t1), top3: f(t3), top10: f(t10), mrr: f(rr) };
}
if (opts.lobo) {
  const group = (id) => id.replace(/[-\d].*$/, "").replace(/\d+$/, "");
  const groups = [...new Set(train.map((k) => group(k.id)))];
  const ranks = new Map();
  for (const g of groups) {
    const w = fit(train.filter((k) => group(k.id) !== g));
    for (const k of train.filter((k) => group(k.id) === g)) ranks.set(k, rankOf(k, w));
  }
  console.log("lobo base", JSON.stringify(metrics(train, (k) => k.goldRank)));
  console.log("lobo rr  ", JSON.stringify(metrics(train, (k) => ranks.get(k))), groups.join(","));
  process.exit(0);
}
console.log("baseline", JSON.stringify(metrics(train, (k) => k.goldRank)));
// cross-validation by case id (all seeds of a case in one fold)
const cvRanks = new Map();
for (let f = 0; f < folds; f++) {
  const inFold = (k) => hash(k.id) % folds === f;
  const w = fit(train.filter((k) => !inFold(k)));
  for (const k of train.filter(inFold)) cvRanks.set(k, rankOf(k, w));
}
console.log("cv      ", JSON.stringify(metrics(train, (k) => cvRanks.get(k))));
const w = fit(train);
console.log("weights ", w.map((x) => x.toFixed(2)).join(" "));
if (holdout.length) {
  console.log("hold base", JSON.stringify(metrics(holdout, (k) => k.goldRank)));
  console.log("hold rr  ", JSON.stringify(metrics(holdout, (k) => rankOf(k, w))));
}
if (evalFile) {
  const ev = load(evalFile);
  console.log("eval base", JSON.stringify(metrics(ev, (k) => k.goldRank)));
  console.log("eval rr  ", JSON.stringify(metrics(ev, (k) => rankOf(k, w))));
}
