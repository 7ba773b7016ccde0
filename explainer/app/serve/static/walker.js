// A step's frames on the learner's grid: the step's own frame, then its proof's sub-frames
// (docs/serve.md: each scene after the first has a suffix and a level; level 1 sub-frames
// come first, deeper levels right after the frame that opens them). Previous / next walk the
// frames of the levels opened so far; "open the nested proof" goes one level deeper.

import {t} from "./i18n.js";

export class Walker {
  constructor(board, els) {
    this.board = board;
    this.els = els;
    this.scenes = [];
    this.k = 0;
    this.depth = 1;
    this.extra = "";
    els.prev.addEventListener("click", () => this.step(-1));
    els.next.addEventListener("click", () => this.step(1));
    els.deeper.addEventListener("click", () => this.open());
    els.shallower.addEventListener("click", () => this.close());
  }

  clear() {
    this.scenes = [];
    this.els.nav.hidden = true;
  }

  /**
   * Show a list of scenes from the first; ``extra``: a line said after the caption (a rating);
   * ``more(depth)``: when the server left deeper proof levels out ("deeper": true), fetches the
   * scenes down to ``depth`` (null when it cannot).
   */
  show(scenes, extra = "", more = null, heading = "") {
    this.heading = heading; // said before each frame's title (a claim's verdict)
    this.scenes = scenes;
    this.k = 0;
    this.depth = 1;
    this.extra = extra;
    this.more = more;
    this.draw();
  }

  loaded() {
    return Math.max(0, ...this.scenes.map((s) => s.level || 0));
  }

  level(k) {
    return this.scenes[k].level || 0;
  }

  visible() {
    const out = [];
    this.scenes.forEach((s, k) => {
      if (this.level(k) <= this.depth) out.push(k);
    });
    return out;
  }

  step(d) {
    const vis = this.visible();
    const at = vis.indexOf(this.k);
    const to = vis[at + d];
    if (to === undefined) return;
    this.k = to;
    this.draw();
  }

  /** Whether the frame after the current one opens a deeper proof (or the server has more levels). */
  opens() {
    if (this.opensHere()) return true;
    if (!this.more) return false;
    const s = this.scenes[this.k];
    // the server marks a frame whose nested frames it left out ("opens"); without the mark,
    // any frame of the deepest level loaded may open some
    if ("opens" in s) return Boolean(s.opens);
    return this.level(this.k) >= 1 && this.level(this.k) >= this.loaded();
  }

  opensHere() {
    const k = this.k;
    return k + 1 < this.scenes.length && this.level(k + 1) > this.depth && this.level(k + 1) > this.level(k);
  }

  async open() {
    if (!this.opensHere() && this.more) {
      const suffix = this.scenes[this.k].suffix;
      const scenes = await this.more(this.loaded() + 1);
      if (!scenes) return;
      const at = scenes.findIndex((s) => s.suffix === suffix);
      this.scenes = scenes;
      if (at >= 0) this.k = at;
      if (this.loaded() <= this.depth) this.more = null; // nothing deeper came: no more to ask
    }
    if (!this.opensHere()) {
      this.draw();
      return;
    }
    this.depth = this.level(this.k + 1);
    this.k += 1;
    this.draw();
    this.els.next.focus();
  }

  close() {
    if (this.depth <= 1) return;
    this.depth -= 1;
    let k = this.k;
    while (k > 0 && this.level(k) > this.depth) k--;
    this.k = k;
    this.draw();
    this.els.prev.focus();
  }

  relabel() {
    if (this.scenes.length) this.counter();
  }

  counter() {
    const vis = this.visible();
    const at = vis.indexOf(this.k) + 1;
    const lvl = this.level(this.k);
    this.els.counter.textContent = lvl > 1 ? t("frameLevel", {k: at, n: vis.length, level: lvl})
      : t("frame", {k: at, n: vis.length});
    // aria-disabled, not disabled: the focus stays on a button that reaches the end
    this.els.prev.setAttribute("aria-disabled", String(at <= 1));
    this.els.next.setAttribute("aria-disabled", String(at >= vis.length));
    this.els.deeper.hidden = !this.opens();
    this.els.shallower.hidden = this.depth <= 1;
  }

  draw() {
    if (!this.scenes.length) return;
    const s = this.scenes[this.k];
    this.board.showScene(s);
    const title = s.title || this.els.title.textContent;
    this.els.title.textContent = this.heading ? `${this.heading} — ${title}` : title;
    this.els.caption.textContent = s.caption || "";
    this.els.legend.textContent = s.legend || "";
    if (this.extra) this.els.meta.textContent = this.extra;
    this.els.nav.hidden = this.scenes.length < 2;
    this.counter();
  }
}
