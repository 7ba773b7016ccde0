// The grid on the page: an SVG drawing under a WAI-ARIA grid of transparent cells (role=grid,
// rows, gridcells; one tab stop, the focus roving with the arrow keys). The cells take the
// keyboard, the mouse and touch; the SVG shows either the learner's board or a step's scene.

import {boardMarkup, gridMarkup, MARGIN, sceneMarkup, viewBox} from "./draw.js";
import {t} from "./i18n.js";
import {charOf, valueOf} from "./model.js";

export class Board {
  /**
   * ``handlers``: value(i, v, shift), erase(i), toggleMode(), undo(), redo(), select(i).
   */
  constructor(svg, cells, handlers) {
    this.svg = svg;
    this.cells = cells;
    this.handlers = handlers;
    this.game = null;
    this.selected = 0;
    this.highlight = 0;
    this.mistakes = new Set();
    this.scene = null;
    this.theme = null;
    cells.addEventListener("keydown", (e) => this.key(e));
    cells.addEventListener("click", (e) => {
      const cell = e.target.closest("[role=gridcell]");
      if (cell) this.focus(Number(cell.dataset.i));
    });
  }

  setGame(game) {
    this.game = game;
    this.selected = Math.min(this.selected, game.n * game.n - 1);
    this.scene = null;
    this.mistakes = new Set();
    this.build();
    this.render();
  }

  /** The gridcells, placed over the SVG's cells (positions set through CSSOM, CSP-safe). */
  build() {
    const n = this.game.n;
    const total = n + MARGIN + 0.05;
    const pct = (x) => `${(x * 100) / total}%`;
    this.cells.replaceChildren();
    this.cells.style.left = pct(MARGIN);
    this.cells.style.top = pct(MARGIN);
    this.cells.style.width = pct(n);
    this.cells.style.height = pct(n);
    this.cells.setAttribute("aria-label", t("gridLabel", {n}));
    this.cells.classList.toggle("big", n >= 16);
    for (let r = 0; r < n; r++) {
      const row = document.createElement("div");
      row.setAttribute("role", "row");
      row.className = "gridrow";
      row.style.top = `${(r * 100) / n}%`;
      row.style.height = `${100 / n}%`;
      for (let c = 0; c < n; c++) {
        const cell = document.createElement("div");
        cell.setAttribute("role", "gridcell");
        cell.className = "cell";
        cell.dataset.i = String(r * n + c);
        cell.style.left = `${(c * 100) / n}%`;
        cell.style.width = `${100 / n}%`;
        cell.tabIndex = -1;
        row.append(cell);
      }
      this.cells.append(row);
    }
    this.cellEls = [...this.cells.querySelectorAll("[role=gridcell]")];
    this.cellEls[this.selected].tabIndex = 0;
  }

  setTheme(theme) {
    this.theme = theme;
    this.render();
  }

  showScene(scene) {
    this.scene = scene;
    this.render();
  }

  render() {
    if (!this.theme) return;
    if (!this.game) { // no puzzle yet: an empty 9x9 grid, so the page shows what it is for
      this.svg.setAttribute("viewBox", viewBox(9));
      this.svg.innerHTML = `<rect x="0" y="0" width="9" height="9" fill="${this.theme.background}"/>` +
        gridMarkup(9, this.theme);
      return;
    }
    const n = this.game.n;
    this.svg.setAttribute("viewBox", viewBox(n));
    this.svg.classList.toggle("scene", Boolean(this.scene));
    this.svg.innerHTML = (this.scene
      ? sceneMarkup(this.scene, this.theme)
      : boardMarkup(this.game, this.theme, {highlight: this.highlight, mistakes: this.mistakes})) +
      `<rect id="sel" width="1" height="1" fill="${this.theme.on}" opacity="0.16" pointer-events="none"/>`;
    this.placeSelection();
    this.labels();
  }

  /** The selected cell's tint: moved on its own, the drawing stays (a 25x25 has 15625 marks). */
  placeSelection() {
    const sel = this.svg.querySelector("#sel");
    if (!sel) return;
    const n = this.game.n;
    sel.setAttribute("x", String(this.selected % n));
    sel.setAttribute("y", String(Math.floor(this.selected / n)));
  }

  /** ARIA labels: "row 4 column 7, candidates 2 5 8" (or the value, given or not). */
  labels() {
    const g = this.game, n = g.n;
    this.cellEls.forEach((el, i) => {
      const r = Math.floor(i / n) + 1, c = (i % n) + 1;
      let s = `${t("row")} ${r} ${t("column")} ${c}, `;
      const v = g.values[i];
      if (v) s += g.isGiven(i) ? `${t("given")} ${charOf(v)}` : charOf(v);
      else if (g.marks[i]) {
        const list = [];
        for (let x = 1; x <= n; x++) if (g.marks[i] & (1 << (x - 1))) list.push(charOf(x));
        s += `${t("candidatesWord")} ${list.join(" ")}`;
      } else s += t("empty");
      if (this.mistakes.has(i)) s += `, ${t("mistakeWord")}`;
      el.setAttribute("aria-label", s);
      el.setAttribute("aria-selected", i === this.selected ? "true" : "false");
      if (g.isGiven(i)) el.setAttribute("aria-readonly", "true");
      else el.removeAttribute("aria-readonly");
    });
  }

  focus(i, move = true) {
    if (!this.cellEls) return;
    const old = this.cellEls[this.selected];
    old.tabIndex = -1;
    old.setAttribute("aria-selected", "false");
    this.selected = i;
    this.cellEls[i].tabIndex = 0;
    this.cellEls[i].setAttribute("aria-selected", "true");
    if (move) this.cellEls[i].focus();
    this.handlers.select?.(i);
    this.placeSelection();
  }

  key(e) {
    if (!this.game) return;
    const n = this.game.n;
    const r = Math.floor(this.selected / n), c = this.selected % n;
    const ctrl = e.ctrlKey || e.metaKey;
    const go = (rr, cc) => this.focus(Math.max(0, Math.min(n - 1, rr)) * n + Math.max(0, Math.min(n - 1, cc)));
    let handled = true;
    if (ctrl && (e.key === "z" || e.key === "Z")) {
      if (e.shiftKey) this.handlers.redo();
      else this.handlers.undo();
    } else if (ctrl && (e.key === "y" || e.key === "Y")) this.handlers.redo();
    else if (ctrl && e.key === "Home") go(0, 0);
    else if (ctrl && e.key === "End") go(n - 1, n - 1);
    else if (ctrl) handled = false;
    else if (e.key === "ArrowUp") go(r - 1, c);
    else if (e.key === "ArrowDown") go(r + 1, c);
    else if (e.key === "ArrowLeft") go(r, c - 1);
    else if (e.key === "ArrowRight") go(r, c + 1);
    else if (e.key === "Home") go(r, 0);
    else if (e.key === "End") go(r, n - 1);
    else if (e.key === "PageUp") go(0, c);
    else if (e.key === "PageDown") go(n - 1, c);
    else if (e.key === "Backspace" || e.key === "Delete" || e.key === "0") this.handlers.erase(this.selected);
    else if (e.key === " " || e.key === "Spacebar") this.handlers.toggleMode();
    else {
      const v = this.valueKey(e);
      if (v > 0) this.handlers.value(this.selected, v, e.shiftKey);
      else handled = false;
    }
    if (handled) e.preventDefault();
  }

  /** The value a key stands for: digits 1-9 (also with Shift, by their key code), letters A.. on big grids. */
  valueKey(e) {
    const n = this.game.n;
    const digit = /^(Digit|Numpad)([1-9])$/.exec(e.code || "");
    if (digit) return Number(digit[2]) <= n ? Number(digit[2]) : -1;
    if (e.key.length === 1) {
      const v = valueOf(e.key, n);
      return v > 0 && (v <= 9 || /[a-z]/i.test(e.key)) ? v : -1;
    }
    return -1;
  }
}
