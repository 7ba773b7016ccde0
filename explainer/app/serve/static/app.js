// The learner's page: wires the grid, the controls and the server's answers together.
// Talks to the server only through the API of docs/serve.md (api.js).

import {ApiError, Cancelled, cancel, getJSON, post} from "./api.js";
import {Board} from "./board.js";
import {lang, maybe, setLang, t, translate} from "./i18n.js";
import {charOf, Game, LETTERS, lineOf, valueOf} from "./model.js";
import {Walker} from "./walker.js";

const SETTINGS = "sudoku-explainer.settings";
const SAVED = "sudoku-explainer.game";
const $ = (id) => document.getElementById(id);

// Used only when /api/meta cannot be read: enough colours to draw the grid.
const FALLBACK = {background: "#ffffff", grid: "#000000", label: "#666666", given: "#000000", earlier: "#1d3557",
  candidate: "#4a4a4a", cells_fill: "#2ca02c", on: "#1f5fbf", off: "#ffd35c", off_ring: "#8a6200",
  eliminate: "#d62728", place: "#d62728"};

const app = {
  meta: null,
  themes: {default: FALLBACK},
  settings: {lang: "en", theme: "default", order: "simplest", techniques: null},
  game: null,
  markMode: false,
  claimMode: false,
  hintLevel: 0,
  hintKey: "",
  hintAnswer: null, // {asked: the position's request, ans: its level-3 answer}
  step: null, // the step "apply" plays
  claim: null, // the claim "play it" plays
  refresh: null, // asks the server again (a language change)
};

let board;
let walker;

// ---------------------------------------------------------------- settings and storage

function loadSettings() {
  try {
    const stored = JSON.parse(localStorage.getItem(SETTINGS) || "{}");
    if (stored.palette !== undefined) {  // the setting's older name
      if (stored.theme === undefined) stored.theme = stored.palette;
      delete stored.palette;
    }
    Object.assign(app.settings, stored);
  } catch {
    // a damaged entry: the defaults
  }
}

function saveSettings() {
  localStorage.setItem(SETTINGS, JSON.stringify(app.settings));
}

function save() {
  if (!app.game) return;
  localStorage.setItem(SAVED, JSON.stringify(app.game));
  history.replaceState(null, "", app.game.fragment());
}

function currentTheme() {
  return app.themes[app.settings.theme] || Object.values(app.themes)[0];
}

// ---------------------------------------------------------------- messages

function error(msg) {
  $("error").textContent = msg || "";
}

function status(msg) {
  $("status").textContent = msg;
}

function modeStatus() {
  if (!app.game) return status(t("noPuzzle"));
  if (solvedRight()) return status(t("solved"));
  status(app.markMode ? t("modeMarks") : t("modeValues"));
}

/** Every row, column and box holds each value once: the grid is solved (its solution is unique). */
function solvedRight() {
  const g = app.game;
  if (!g || !g.solved) return false;
  const n = g.n, m = g.m, full = (1 << n) - 1;
  for (let k = 0; k < n; k++) {
    let row = 0, colm = 0, box = 0;
    for (let j = 0; j < n; j++) {
      row |= 1 << (g.values[k * n + j] - 1);
      colm |= 1 << (g.values[j * n + k] - 1);
      const r = m * Math.floor(k / m) + Math.floor(j / m), c = m * (k % m) + (j % m);
      box |= 1 << (g.values[r * n + c] - 1);
    }
    if (row !== full || colm !== full || box !== full) return false;
  }
  return true;
}

/** Run a request; its error (one line) goes to the error line, a cancel says so. */
async function request(path, body) {
  error("");
  try {
    return await post(path, body);
  } catch (e) {
    if (e instanceof Cancelled || e instanceof ApiError) error(e.message);
    else error(String(e.message || e));
    return null;
  }
}

function position() {
  const body = {...app.game.position(), lang: lang(), order: app.settings.order};
  if (app.settings.techniques) body.techniques = app.settings.techniques;
  return body;
}

function needGame() {
  if (app.game) return true;
  error(t("noPuzzle"));
  return false;
}

// ---------------------------------------------------------------- the game

function setGame(game, message) {
  app.game = game;
  app.hintLevel = 0;
  document.body.classList.toggle("big", game.n >= 16); // a wider board for 16x16 and 25x25
  $("start-panel").open = false; // playing now: the help and the step come first
  document.body.classList.add("playing");
  closeResult();
  board.setGame(game);
  buildPad();
  save();
  modeStatus();
  if (message) status(message);
}

function changed() {
  app.hintLevel = 0;
  board.mistakes = new Set();
  if (!$("result").hidden) closeResult();
  board.render();
  save();
  modeStatus();
}

function playValue(i, v, asMark) {
  const g = app.game;
  if (!g) return;
  if (app.claimMode) {
    const cell = `r${Math.floor(i / g.n) + 1}c${(i % g.n) + 1}`;
    const removing = asMark || app.markMode;
    $("claim").value = `${cell}${removing ? "<>" : "="}${charOf(v)}`;
    claim();
    return;
  }
  let done;
  if (asMark || app.markMode) done = g.toggleMark(i, v);
  else done = g.place(i, g.values[i] === v ? 0 : v);
  if (done) changed();
}

function buildPad() {
  const pad = $("pad");
  pad.replaceChildren();
  const n = app.game ? app.game.n : 9;
  pad.classList.toggle("big", n >= 16);
  for (let v = 1; v <= n; v++) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = charOf(v);
    b.dataset.v = String(v);
    b.addEventListener("click", () => playValue(board.selected, v, false));
    pad.append(b);
  }
  const hl = $("highlight");
  const keep = hl.value;
  hl.replaceChildren(new Option(t("noHighlight"), "0"));
  for (let v = 1; v <= n; v++) hl.append(new Option(charOf(v), String(v)));
  hl.value = Number(keep) <= n ? keep || "0" : "0";
}

function setMarkMode(on) {
  app.markMode = on;
  $("mode").setAttribute("aria-pressed", String(on));
  modeStatus();
}

// ---------------------------------------------------------------- the result panel

function openResult(title) {
  const box = $("result");
  box.hidden = false;
  $("result-title").textContent = title;
  for (const id of ["caption", "legend", "meta"]) $(id).textContent = "";
  $("mistakes").replaceChildren();
  $("steps").replaceChildren();
  $("apply").hidden = true;
  $("play-claim").hidden = true;
  walker.clear();
}

function closeResult() {
  $("result").hidden = true;
  walker.clear();
  board.showScene(null);
  app.step = null;
  app.claim = null;
  app.refresh = null;
}

function showMistakes(list, intro) {
  board.mistakes = new Set(list.map((mk) => cellIndex(mk.cell)));
  board.render();
  $("caption").textContent = list.length ? intro || t("mistakesFound", {k: list.length}) : t("onTrack");
  const ul = $("mistakes");
  ul.replaceChildren();
  for (const mk of list) {
    const li = document.createElement("li");
    li.append(mk.text + " ");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "why";
    b.textContent = t("why");
    b.addEventListener("click", () => why(mk));
    li.append(b);
    ul.append(li);
  }
}

function cellIndex(name) {
  const m = /^r(\d+)c(\d+)$/.exec(name || "");
  return m ? (Number(m[1]) - 1) * app.game.n + Number(m[2]) - 1 : -1;
}

// ---------------------------------------------------------------- server actions

async function start() {
  const text = $("puzzle-text").value;
  const ans = await request("/api/start", {text});
  if (ans) setGame(new Game(ans.puzzle), t("started", {k: ans.givens}));
}

async function generate() {
  const diff = $("difficulty").value;
  const ans = await request("/api/generate", {size: Number($("size").value), difficulty: diff || null, rating: null});
  if (ans) setGame(new Game(ans.puzzle), t("started", {k: countGivens(ans.puzzle)}));
}

async function fromBank() {
  const band = $("band").value;
  const ans = await request("/api/bank", {band: band || null, index: null});
  if (ans) setGame(new Game(ans.puzzle), t("started", {k: countGivens(ans.puzzle)}));
}

function countGivens(line) {
  return [...line].filter((ch) => ch !== "." && ch !== "0").length;
}

async function check() {
  if (!needGame()) return;
  const ans = await request("/api/check", position());
  if (!ans) return;
  openResult(t("check"));
  showMistakes(ans.mistakes || []);
  app.refresh = check;
}

async function hint(level) {
  if (!needGame()) return;
  const key = JSON.stringify(app.game.position());
  if (level === undefined) level = key === app.hintKey ? Math.min(3, app.hintLevel + 1) : 1;
  // one request per position: a level-3 answer carries the words of levels 1-3 ("texts"),
  // revealed one by one; a move, another language, order or ticked techniques ask again
  const asked = JSON.stringify(position());
  let ans = app.hintAnswer && app.hintAnswer.asked === asked ? app.hintAnswer.ans : null;
  if (!ans) {
    ans = await request("/api/hint", {...position(), level: 3});
    if (!ans) return;
    app.hintAnswer = {asked, ans};
  }
  app.hintKey = key;
  app.refresh = () => hint(level);
  if (ans.mistakes) {
    openResult(t("check"));
    showMistakes(ans.mistakes, t("mistakesFirst"));
    return;
  }
  app.hintLevel = level;
  $("hint").textContent = level < 3 ? t("more") : t("hint");
  openResult(t("levelLabel", {level}));
  if (!ans.step && !ans.technique) {
    $("caption").textContent = ans.text || t("solvedGrid");
    return;
  }
  if (level < 3 || !ans.scenes || !ans.scenes.length) {
    $("caption").textContent = ans.texts ? ans.texts[String(level)] : ans.text;
    return;
  }
  app.step = ans.step;
  $("apply").hidden = false;
  const body = {...position(), level: 3};
  walker.show(ans.scenes, ans.rating != null ? t("stepRating", {er: ans.rating}) : "", deeper(ans, "/api/hint", body));
}

/** The server's sentence and the step's rating, said under the drawn step's caption. */
function said(ans) {
  return [ans.text, ans.rating != null ? t("stepRating", {er: ans.rating}) : ""].filter(Boolean).join(" ");
}

/** Fetches a proof's deeper levels when the server left some out (its "deeper" flag). */
function deeper(ans, path, body) {
  if (!ans.deeper) return null;
  return async (depth) => {
    const more = await request(path, {...body, depth});
    return more && more.scenes ? more.scenes : null;
  };
}

async function apply() {
  if (!app.step) return;
  const ans = await request("/api/apply", {...position(), step: app.step});
  if (!ans) return;
  closeResult();
  if (app.game.adopt(ans.grid, ans.marks)) changed();
  $("show-step").focus();
}

async function why(mistake) {
  const {cell, value, kind} = mistake;
  const ans = await request("/api/why", {...position(), mistake: {cell, value, kind}});
  if (!ans) return;
  openResult(t("why"));
  app.refresh = () => why(mistake);
  if (ans.scenes && ans.scenes.length) {
    const body = {...position(), mistake: {cell, value, kind}};
    walker.show(ans.scenes, said(ans), deeper(ans, "/api/why", body));
  } else {
    $("caption").textContent = ans.text || "";
  }
}

const CLAIM = /^\s*r(\d+)\s*c(\d+)\s*(<>|!=|≠|=)\s*([1-9a-p])\s*$/i;

async function claim() {
  if (!needGame()) return;
  const m = CLAIM.exec($("claim").value);
  const n = app.game.n;
  if (!m || Number(m[1]) > n || Number(m[2]) > n || Number(m[1]) < 1 || Number(m[2]) < 1) {
    error(t("badClaim"));
    return;
  }
  const text = `r${m[1]}c${m[2]}${m[3] === "=" ? "=" : "<>"}${m[4].toUpperCase()}`;
  const body = {...position(), claim: text};
  const ans = await request("/api/claim", body);
  if (!ans) return;
  app.refresh = claim;
  if (ans.mistakes) {
    openResult(t("check"));
    showMistakes(ans.mistakes, t("mistakesFirst"));
    return;
  }
  const verdict = `${text}: ${t(`verdict.${ans.verdict}`)}`;
  openResult(verdict);
  if (ans.scenes && ans.scenes.length) {
    walker.show(ans.scenes, said(ans), deeper(ans, "/api/claim", body), verdict);
  } else {
    $("caption").textContent = ans.text || "";
  }
  if (ans.verdict === "justified") {
    app.claim = {i: (Number(m[1]) - 1) * n + Number(m[2]) - 1, eq: m[3] === "=", v: valueOf(m[4], n)};
    $("play-claim").hidden = false;
  }
}

function playClaim() {
  const c = app.claim;
  if (!c) return;
  const g = app.game;
  let done;
  if (c.eq) done = g.place(c.i, c.v);
  else {
    const marks = g.marks[c.i] || g.candidates(c.i);
    done = g.play([[c.i, 0, marks & ~(1 << (c.v - 1))]]);
  }
  closeResult();
  if (done) changed();
}

async function explain() {
  if (!needGame()) return;
  const body = position();
  const doc = await request("/api/explain", body);
  if (!doc) return;
  app.refresh = explain;
  openResult(t("explain"));
  if (doc.mistakes) {
    showMistakes(doc.mistakes, t("mistakesFirst"));
    return;
  }
  const r = doc.rating;
  const lines = [];
  if (r) lines.push(t("rating", {er: r.er, ep: r.ep, ed: r.ed}));
  const needed = (doc.techniques_needed || []).map((x) => (typeof x === "string" ? x : x.title || x.name));
  if (needed.length) lines.push(t("needed", {list: needed.join(", ")}));
  $("meta").textContent = lines.join(". ");
  const steps = doc.steps || [];
  $("caption").textContent = t("stepsLeft", {k: steps.length});
  const ol = $("steps");
  steps.forEach((s, k) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "step";
    b.textContent = s.text || s.technique;
    b.addEventListener("click", async () => {
      const ans = await request("/api/scene", {...body, index: k + 1});
      if (!ans) return;
      for (const el of ol.querySelectorAll("button[aria-current]")) el.removeAttribute("aria-current");
      b.setAttribute("aria-current", "step");
      walker.show(ans.scenes || [], s.rating != null ? t("stepRating", {er: s.rating}) : "",
        deeper(ans, "/api/scene", {...body, index: k + 1}));
    });
    li.append(b);
    ol.append(li);
  });
}

async function solution() {
  if (!needGame()) return;
  if (!window.confirm(t("confirmSolution"))) return;
  const g = app.game;
  const doc = await request("/api/explain", {puzzle: g.puzzle, grid: g.puzzle, marks: null, lang: lang(),
    order: app.settings.order});
  if (!doc || !doc.solution) return;
  openResult(t("solutionTitle"));
  const values = Array.from(doc.solution, (ch) => LETTERS.indexOf(ch.toUpperCase()) + 1);
  const shapes = values.map((v, i) => ({role: g.isGiven(i) ? "given" : "placed", kind: "value",
    row: Math.floor(i / g.n), col: i % g.n, value: v, colour: g.isGiven(i) ? "given" : "earlier", group: null}));
  board.showScene({n: g.n, m: g.m, shapes});
  $("caption").textContent = lineOf(values);
}

// ---------------------------------------------------------------- meta, selects, techniques

function fillSelects() {
  const select = $("theme");
  select.replaceChildren(...Object.keys(app.themes).map((name) => new Option(maybe(`theme.${name}`, name), name)));
  select.value = app.themes[app.settings.theme] ? app.settings.theme : select.options[0]?.value;
  const meta = app.meta || {};
  const ord = $("order");
  ord.replaceChildren(...(meta.orders || ["simplest"]).map((o) => new Option(maybe(`order.${o}`, o), o)));
  ord.value = app.settings.order;
  const size = $("size");
  const keepSize = size.value || "9";
  size.replaceChildren(...(meta.sizes || [9]).map((s) => new Option(`${s}×${s}`, String(s))));
  size.value = keepSize;
  const diff = $("difficulty");
  const keepDiff = diff.value;
  diff.replaceChildren(new Option(t("anyDifficulty"), ""), ...(meta.difficulties || []).map((d) => new Option(maybe(`diff.${d}`, d), d)));
  diff.value = keepDiff;
  const bank = meta.bank || {};
  $("bank-row").hidden = !bank.available;
  const band = $("band");
  band.replaceChildren(new Option(t("anyBand"), ""), ...(bank.bands || []).map((b) => new Option(String(b), String(b))));
  const techs = $("techs");
  const legend = techs.querySelector("legend");
  techs.replaceChildren(legend);
  const ticked = app.settings.techniques ? new Set(app.settings.techniques) : null;
  for (const tech of meta.techniques || []) {
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = tech.name;
    box.checked = !ticked || ticked.has(tech.name);
    box.addEventListener("change", readTechniques);
    const title = tech.title ? tech.title[lang()] || tech.title.en || tech.name : tech.name;
    label.append(box, " " + title.charAt(0).toUpperCase() + title.slice(1));
    techs.append(label);
  }
}

function readTechniques() {
  const boxes = [...$("techs").querySelectorAll("input[type=checkbox]")];
  const on = boxes.filter((b) => b.checked).map((b) => b.value);
  app.settings.techniques = on.length === boxes.length ? null : on;
  saveSettings();
}

function tickAll(on) {
  for (const b of $("techs").querySelectorAll("input[type=checkbox]")) b.checked = on;
  readTechniques();
}

function applyTheme() {
  board.setTheme(currentTheme());
  document.body.dataset.theme = app.settings.theme;
}

function applyLang() {
  setLang(app.settings.lang);
  $("lang").value = lang();
  document.title = t("title");
  translate();
  fillSelects();
  buildPad();
  if (app.game) board.setGame(app.game);
  modeStatus();
  walker.relabel();
  $("hint").textContent = app.hintLevel && app.hintLevel < 3 ? t("more") : t("hint");
  if (!$("result").hidden && app.refresh) app.refresh();
}

// ---------------------------------------------------------------- start-up

function restore() {
  let saved = null;
  try {
    const raw = localStorage.getItem(SAVED);
    if (raw) saved = Game.fromJSON(JSON.parse(raw));
  } catch {
    saved = null;
  }
  if (location.hash.includes("p=")) {
    try {
      const linked = Game.fromFragment(location.hash);
      if (linked && (!saved || saved.fragment() !== linked.fragment())) return setGame(linked, t("restoredLink"));
    } catch {
      error(t("badLink"));
    }
  }
  if (saved) setGame(saved, t("restored"));
}

function wire() {
  board = new Board($("svg"), $("cells"), {
    value: (i, v, shift) => playValue(i, v, shift),
    erase: (i) => {
      if (app.game && app.game.erase(i)) changed();
    },
    toggleMode: () => setMarkMode(!app.markMode),
    undo: () => {
      if (app.game && app.game.undo()) changed();
    },
    redo: () => {
      if (app.game && app.game.redo()) changed();
    },
  });
  walker = new Walker(board, {
    caption: $("caption"), legend: $("legend"), meta: $("meta"), title: $("result-title"), nav: $("proof-nav"),
    prev: $("prev"), next: $("next"), counter: $("counter"), deeper: $("deeper"), shallower: $("shallower"),
  });
  const on = (id, fn) => $(id).addEventListener("click", fn);
  on("cancel", cancel);
  on("start", start);
  on("generate", generate);
  on("bank", fromBank);
  on("mode", () => setMarkMode(!app.markMode));
  on("erase", () => app.game && app.game.erase(board.selected) && changed());
  on("undo", () => app.game && app.game.undo() && changed());
  on("redo", () => app.game && app.game.redo() && changed());
  on("fill", () => app.game && app.game.fillCandidates() && changed());
  on("clear-marks", () => app.game && app.game.play(app.game.marks.map((_, i) => [i, app.game.values[i], 0])) &&
    changed());
  on("share", async () => {
    if (!app.game) return;
    save();
    try {
      await navigator.clipboard.writeText(location.href);
    } catch {
      // no clipboard (an insecure page): the link stays in the address bar
    }
    status(t("linkCopied"));
  });
  on("check", check);
  on("hint", () => hint());
  on("show-step", () => hint(3));
  on("apply", apply);
  on("dismiss", () => {
    closeResult();
    board.render();
    $("hint").focus();
  });
  on("claim-btn", claim);
  on("play-claim", playClaim);
  on("claim-mode", () => {
    app.claimMode = !app.claimMode;
    $("claim-mode").setAttribute("aria-pressed", String(app.claimMode));
  });
  $("claim").addEventListener("keydown", (e) => {
    if (e.key === "Enter") claim();
  });
  on("explain", explain);
  on("solution", solution);
  on("tech-all", () => tickAll(true));
  on("tech-none", () => tickAll(false));
  $("highlight").addEventListener("change", () => {
    board.highlight = Number($("highlight").value);
    board.render();
  });
  $("lang").addEventListener("change", () => {
    app.settings.lang = $("lang").value;
    saveSettings();
    applyLang();
  });
  $("theme").addEventListener("change", () => {
    app.settings.theme = $("theme").value;
    saveSettings();
    applyTheme();
  });
  $("order").addEventListener("change", () => {
    app.settings.order = $("order").value;
    saveSettings();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !$("result").hidden) { // Escape closes a drawn step, as "dismiss" does
      closeResult();
      board.render();
      if (document.activeElement === document.body || $("result").contains(document.activeElement)) $("hint").focus();
    }
  });
  window.addEventListener("hashchange", () => {
    if (app.game && location.hash === app.game.fragment()) return;
    const linked = Game.fromFragment(location.hash);
    if (linked) setGame(linked, t("restoredLink"));
  });
}

async function main() {
  loadSettings();
  setLang(app.settings.lang);
  wire();
  try {
    app.meta = await getJSON("/api/meta");
    const themes = app.meta.themes || app.meta.palettes;  // "palettes": the older name, from an older server
    if (themes && Object.keys(themes).length) app.themes = themes;
  } catch (e) {
    error(String(e.message || e));
  }
  applyLang();
  applyTheme();
  restore();
  modeStatus();
  document.body.dataset.ready = String(Math.round(performance.now())); // ms to interactive (tests, figures)
}

main();
