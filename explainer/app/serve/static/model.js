// The learner's game as data: the puzzle, their values and pencil marks, the undo history,
// and how a position is written for the server (docs/serve.md, "position"), the browser's
// storage and a shared link. No drawing and no requests here.

export const LETTERS = "123456789ABCDEFGHIJKLMNOP";

export function charOf(v) {
  return v ? LETTERS[v - 1] : ".";
}

/** The value of a character of a puzzle line (0: empty), or -1 when it is not one. */
export function valueOf(ch, n) {
  if (ch === "." || ch === "0") return 0;
  const v = LETTERS.indexOf(ch.toUpperCase()) + 1;
  return v >= 1 && v <= n ? v : -1;
}

export function parseLine(line) {
  const n = Math.round(Math.sqrt(line.length));
  if (n * n !== line.length || ![4, 9, 16, 25].includes(n)) throw new Error("bad line length");
  return Array.from(line, (ch) => Math.max(0, valueOf(ch, n)));
}

export function lineOf(values) {
  return values.map(charOf).join("");
}

/** Cells that see cell i (same row, column or box), i excluded. */
export function peers(n, i) {
  const m = Math.round(Math.sqrt(n));
  const r = Math.floor(i / n), c = i % n;
  const br = r - (r % m), bc = c - (c % m);
  const out = new Set();
  for (let k = 0; k < n; k++) {
    out.add(r * n + k);
    out.add(k * n + c);
    out.add((br + Math.floor(k / m)) * n + bc + (k % m));
  }
  out.delete(i);
  return [...out];
}

/**
 * One game: `values[i]` the value of cell i (givens included, 0 empty), `marks[i]` a bitmask
 * of the learner's own pencil marks (bit v-1: value v; 0: no marks written in that cell).
 * Every change is a move: a list of [cell, oldValue, newValue, oldMarks, newMarks], undone
 * and redone as a whole, without limit.
 */
export class Game {
  constructor(puzzle) {
    this.puzzle = puzzle;
    this.n = Math.round(Math.sqrt(puzzle.length));
    this.m = Math.round(Math.sqrt(this.n));
    this.givens = parseLine(puzzle);
    this.values = this.givens.slice();
    this.marks = new Array(this.n * this.n).fill(0);
    this.done = [];
    this.undone = [];
  }

  isGiven(i) {
    return this.givens[i] !== 0;
  }

  /** Play a list of cell changes [cell, value, marks] as one move; false when nothing changes. */
  play(changes) {
    const move = [];
    for (const [i, value, marks] of changes) {
      if (this.isGiven(i)) continue;
      const old = [this.values[i], this.marks[i]];
      if (old[0] === value && old[1] === marks) continue;
      move.push([i, old[0], value, old[1], marks]);
      this.values[i] = value;
      this.marks[i] = marks;
    }
    if (!move.length) return false;
    this.done.push(move);
    this.undone = [];
    return true;
  }

  /** Place v in cell i (0 erases); the value leaves its peers' pencil marks. */
  place(i, v) {
    if (this.isGiven(i)) return false;
    const changes = [[i, v, this.marks[i]]];
    if (v) {
      const bit = 1 << (v - 1);
      for (const p of peers(this.n, i)) {
        if (this.values[p] === 0 && this.marks[p] & bit) changes.push([p, 0, this.marks[p] & ~bit]);
      }
    }
    return this.play(changes);
  }

  toggleMark(i, v) {
    if (this.values[i] !== 0) return false;
    return this.play([[i, 0, this.marks[i] ^ (1 << (v - 1))]]);
  }

  erase(i) {
    if (this.isGiven(i)) return false;
    if (this.values[i]) return this.play([[i, 0, this.marks[i]]]);
    return this.play([[i, 0, 0]]);
  }

  /** The candidates of cell i from the values alone (bitmask). */
  candidates(i) {
    if (this.values[i]) return 0;
    let mask = (1 << this.n) - 1;
    for (const p of peers(this.n, i)) if (this.values[p]) mask &= ~(1 << (this.values[p] - 1));
    return mask;
  }

  /** Every empty cell's pencil marks set to its candidates from the values. */
  fillCandidates() {
    const changes = [];
    for (let i = 0; i < this.n * this.n; i++) {
      if (!this.values[i]) changes.push([i, 0, this.candidates(i)]);
    }
    return this.play(changes);
  }

  undo() {
    const move = this.done.pop();
    if (!move) return false;
    for (let k = move.length - 1; k >= 0; k--) {
      const [i, v0, , m0] = move[k];
      this.values[i] = v0;
      this.marks[i] = m0;
    }
    this.undone.push(move);
    return true;
  }

  redo() {
    const move = this.undone.pop();
    if (!move) return false;
    for (const [i, , v1, , m1] of move) {
      this.values[i] = v1;
      this.marks[i] = m1;
    }
    this.done.push(move);
    return true;
  }

  get solved() {
    return this.values.every((v) => v !== 0);
  }

  hasMarks() {
    return this.marks.some((mk, i) => mk !== 0 && this.values[i] === 0);
  }

  /** The position as the server reads it: puzzle, grid, marks (null: none written). */
  position() {
    return {puzzle: this.puzzle, grid: lineOf(this.values), marks: this.hasMarks() ? this.marksLine() : null};
  }

  marksLine() {
    const n = this.n;
    let out = "";
    for (let i = 0; i < n * n; i++) {
      const mk = this.values[i] ? 0 : this.marks[i];
      for (let v = 1; v <= n; v++) out += mk & (1 << (v - 1)) ? charOf(v) : ".";
    }
    return out;
  }

  /**
   * Take a position the server computed (after "apply"): its values, and its marks in the
   * cells where the learner wrote marks, or where the marks say more than the values do
   * (an elimination the step made); other cells stay without marks. One move.
   */
  adopt(grid, marksLine) {
    const n = this.n;
    const values = parseLine(grid);
    const after = new Game(this.puzzle);
    after.values = values;
    const changes = [];
    for (let i = 0; i < n * n; i++) {
      let mk = 0;
      if (!values[i] && marksLine) {
        for (let v = 1; v <= n; v++) if (marksLine[i * n + v - 1] !== ".") mk |= 1 << (v - 1);
        if (!this.marks[i] && mk === after.candidates(i)) mk = 0;
      }
      changes.push([i, values[i], mk]);
    }
    return this.play(changes);
  }

  // ---- storage and links ----

  toJSON() {
    return {puzzle: this.puzzle, values: lineOf(this.values), marks: packMarks(this), done: this.done,
      undone: this.undone};
  }

  static fromJSON(data) {
    const g = new Game(data.puzzle);
    const values = parseLine(data.values);
    g.givens.forEach((v, i) => {
      if (!v) g.values[i] = values[i];
    });
    if (data.marks) g.marks = unpackMarks(data.marks, g.n);
    const ok = (list) => Array.isArray(list) && list.every((mv) => Array.isArray(mv));
    if (ok(data.done)) g.done = data.done;
    if (ok(data.undone)) g.undone = data.undone;
    return g;
  }

  /** The URL fragment that restores this game: puzzle, the learner's values and marks. */
  fragment() {
    const entries = this.values.map((v, i) => (this.givens[i] ? "." : charOf(v))).join("");
    const parts = [`p=${this.puzzle}`];
    if (/[^.]/.test(entries)) parts.push(`v=${entries}`);
    if (this.hasMarks()) parts.push(`k=${packMarks(this)}`);
    return "#" + parts.join("&");
  }

  static fromFragment(hash) {
    const fields = new Map(hash.replace(/^#/, "").split("&").map((kv) => {
      const k = kv.indexOf("=");
      return k < 0 ? [kv, ""] : [kv.slice(0, k), decodeURIComponent(kv.slice(k + 1))];
    }));
    const puzzle = fields.get("p");
    if (!puzzle) return null;
    const g = new Game(puzzle);
    const v = fields.get("v");
    if (v && v.length === puzzle.length) {
      parseLine(v).forEach((x, i) => {
        if (!g.givens[i]) g.values[i] = x;
      });
    }
    const k = fields.get("k");
    if (k) g.marks = unpackMarks(k, g.n);
    return g;
  }
}

// Marks as a bit string (cell-major, n bits a cell), base64url: 122 characters for 9x9.
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

export function packMarks(game) {
  const n = game.n;
  const bits = [];
  for (let i = 0; i < n * n; i++) {
    const mk = game.values[i] ? 0 : game.marks[i];
    for (let v = 0; v < n; v++) bits.push((mk >> v) & 1);
  }
  let out = "";
  for (let k = 0; k < bits.length; k += 6) {
    let x = 0;
    for (let b = 0; b < 6; b++) x = (x << 1) | (bits[k + b] || 0);
    out += B64[x];
  }
  return out;
}

export function unpackMarks(text, n) {
  const marks = new Array(n * n).fill(0);
  const total = n * n * n;
  let k = 0;
  for (const ch of text) {
    const x = B64.indexOf(ch);
    if (x < 0) break;
    for (let b = 5; b >= 0 && k < total; b--, k++) {
      if ((x >> b) & 1) marks[Math.floor(k / n)] |= 1 << (k % n);
    }
  }
  return marks;
}
