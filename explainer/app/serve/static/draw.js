// Drawing as SVG markup, in grid units (a cell is 1x1, x = column, y = row): the learner's
// board, and a step's scene (docs/serve.md, "The scene") with the sizes and shapes the PNG
// renderer uses (render/frame.py, render/sizes.py, render/styles.py), so the page and the
// frames draw one scene alike. Colours are a theme's colour keys, looked up in /api/meta's themes.

import {charOf} from "./model.js";

export const MARGIN = 0.62; // room for the row and column numbers, in cells

// ---- sizes (render/sizes.py) ----
export const VALUE_H = 0.5;
const spotGap = (m) => (m <= 3 ? 0.81 : 0.82) / m;
const candH = (m) => (m <= 3 ? 0.56 : 0.66) / m;
const markH = (m) => candH(m) * (m <= 3 ? 0.85 : 0.92);
const diskR = (m) => (m <= 3 ? 0.48 : 0.49) * spotGap(m);
const LINK_CLEAR = 1.05;
const FAINT = 0.3;
const CAP = 0.72; // a digit's height in ems of its font size

export function spot(n, r, c, v) {
  const m = Math.round(Math.sqrt(n));
  const i = Math.floor((v - 1) / m), j = (v - 1) % m;
  const k = spotGap(m);
  return [c + 0.5 + (j - (m - 1) / 2) * k, r + 0.5 + (i - (m - 1) / 2) * k];
}

const f = (x) => (Math.round(x * 1000) / 1000).toString();
const esc = (s) => String(s).replace(/[&<>"]/g, (ch) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[ch]);

function luminance(colour) {
  const c = colour.replace("#", "");
  const lin = [0, 2, 4].map((k) => {
    const x = parseInt(c.slice(k, k + 2), 16) / 255;
    return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

export function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/**
 * The digit on a disk: black or white, whichever contrasts more with the disk. (The PNG's
 * render/styles.py digit_on switches at luminance 0.4, which leaves white digits below
 * 4.5:1 on mid colours such as #2ca02c; the page keeps every digit at 4.5:1 or more.)
 */
export function digitOn(colour) {
  if (typeof colour !== "string" || !colour.startsWith("#")) return "#000000";
  return contrast(colour, "#ffffff") > contrast(colour, "#000000") ? "#ffffff" : "#000000";
}

/** A text colour darkened (or lightened) just enough to read at 4.5:1 on ``background``. */
export function readable(colour, background) {
  if (typeof colour !== "string" || !/^#[0-9a-f]{6}$/i.test(colour) || !/^#[0-9a-f]{6}$/i.test(background || "")) {
    return colour;
  }
  const target = luminance(background) > 0.18 ? 0 : 255;
  const rgb = [1, 3, 5].map((k) => parseInt(colour.slice(k, k + 2), 16));
  for (let a = 0; a <= 1.0001; a += 0.05) {
    const mixed = "#" + rgb.map((x) => Math.round(x + (target - x) * a).toString(16).padStart(2, "0")).join("");
    if (contrast(mixed, background) >= 4.5) return mixed;
  }
  return target ? "#ffffff" : "#000000";
}

function text(x, y, h, ch, fill, {bold = false, opacity = 1, cls = ""} = {}) {
  return `<text x="${f(x)}" y="${f(y)}" font-size="${f(h / CAP)}" fill="${fill}"` +
    (bold ? ' font-weight="bold"' : "") + (opacity !== 1 ? ` opacity="${opacity}"` : "") +
    (cls ? ` class="${cls}"` : "") + ` text-anchor="middle" dominant-baseline="central">${esc(ch)}</text>`;
}

/** Grid lines and the row and column numbers. */
export function gridMarkup(n, theme) {
  const m = Math.round(Math.sqrt(n));
  let thin = "", thick = "";
  for (let i = 0; i <= n; i++) {
    const seg = `M${i} 0V${n}M0 ${i}H${n}`;
    if (i % m) thin += seg;
    else thick += seg;
  }
  let out = `<path d="${thin}" stroke="${theme.grid}" stroke-width="0.012" fill="none"/>`;
  out += `<path d="${thick}" stroke="${theme.grid}" stroke-width="0.05" fill="none" stroke-linecap="square"/>`;
  const h = Math.min(0.3, 0.26 * 0.9);
  for (let i = 0; i < n; i++) {
    out += text(i + 0.5, -0.3, h, String(i + 1), theme.label, {cls: "num"});
    out += text(-0.3, i + 0.5, h, String(i + 1), theme.label, {cls: "num"});
  }
  return out;
}

/**
 * The learner's board: values (givens and their own in two colours), their pencil marks,
 * the highlighted value and the cells a check named (the selected cell: board.js).
 */
export function boardMarkup(game, theme, {highlight = 0, mistakes = new Set()} = {}) {
  const n = game.n, m = game.m;
  let under = "", over = "";
  const bit = highlight ? 1 << (highlight - 1) : 0;
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n), c = i % n, v = game.values[i];
    if (highlight && v === highlight) {
      under += `<rect x="${c}" y="${r}" width="1" height="1" fill="${theme.cells_fill}" opacity="0.35" class="hl"/>`;
    }
    if (mistakes.has(i)) {
      over += `<rect x="${f(c + 0.06)}" y="${f(r + 0.06)}" width="0.88" height="0.88" fill="none" ` +
        `stroke="${theme.eliminate}" stroke-width="0.06" stroke-dasharray="0.12 0.08" class="mistake"/>`;
    }
    if (v) {
      const given = game.isGiven(i);
      over += text(c + 0.5, r + 0.5, VALUE_H, charOf(v), given ? theme.given : theme.earlier,
        {bold: !given, cls: given ? "given" : "entry"});
      continue;
    }
    const mk = game.marks[i];
    for (let x = 1; x <= n; x++) {
      if (!(mk & (1 << (x - 1)))) continue;
      const [sx, sy] = spot(n, r, c, x);
      if (bit && x === highlight) {
        over += `<circle cx="${f(sx)}" cy="${f(sy)}" r="${f(diskR(m))}" fill="${theme.off}" stroke="${theme.off_ring}" ` +
          `stroke-width="0.02" class="hl"/>`;
        over += text(sx, sy, markH(m), charOf(x), digitOn(theme.off), {bold: true, cls: "mark"});
      } else {
        over += text(sx, sy, candH(m), charOf(x), theme.candidate, {bold: m >= 4, cls: "mark"});
      }
    }
  }
  return `<rect x="0" y="0" width="${n}" height="${n}" fill="${theme.background}"/>` + under +
    gridMarkup(n, theme) + over;
}

// ---- scenes ----

function col(theme, key) {
  return theme[key] !== undefined ? theme[key] : theme.label;
}

function nearestSpot(n, [x, y]) {
  const r = Math.min(n - 1, Math.max(0, Math.floor(y))), c = Math.min(n - 1, Math.max(0, Math.floor(x)));
  let best = null, d = Infinity;
  for (let v = 1; v <= n; v++) {
    const p = spot(n, r, c, v);
    const e = Math.hypot(p[0] - x, p[1] - y);
    if (e < d) [best, d] = [p, e];
  }
  return best;
}

/** Both ends of a route pulled back to a circle around the candidate each starts in. */
function clipEnds(n, pts, radius) {
  const out = pts.map((p) => [p[0], p[1]]);
  for (const [end, nxt] of [[0, 1], [pts.length - 1, pts.length - 2]]) {
    const p = pts[end], q = pts[nxt];
    const [cx, cy] = nearestSpot(n, p);
    let ux = q[0] - p[0], uy = q[1] - p[1];
    const L = Math.hypot(ux, uy) || 1;
    ux /= L;
    uy /= L;
    const wx = p[0] - cx, wy = p[1] - cy;
    const b = wx * ux + wy * uy;
    const disc = b * b - (wx * wx + wy * wy - radius * radius);
    const t = Math.min(Math.max(disc > 0 ? -b + Math.sqrt(disc) : 0, 0), L * 0.4);
    out[end] = [p[0] + ux * t, p[1] + uy * t];
  }
  return out;
}

function curve(pts) {
  let d = `M${f(pts[0][0])} ${f(pts[0][1])}`;
  if (pts.length === 2) return d + `L${f(pts[1][0])} ${f(pts[1][1])}`;
  for (let k = 1; k + 1 < pts.length; k += 2) {
    d += `Q${f(pts[k][0])} ${f(pts[k][1])} ${f(pts[k + 1][0])} ${f(pts[k + 1][1])}`;
  }
  if (pts.length % 2 === 0) d += `L${f(pts[pts.length - 1][0])} ${f(pts[pts.length - 1][1])}`;
  return d;
}

function head(pts, size) {
  const [x0, y0] = pts[pts.length - 2], [x1, y1] = pts[pts.length - 1];
  const d = Math.hypot(x1 - x0, y1 - y0) || 1;
  const ux = (x1 - x0) / d, uy = (y1 - y0) / d;
  const bx = x1 - ux * size, by = y1 - uy * size;
  return `M${f(x1)} ${f(y1)}L${f(bx - uy * size * 0.55)} ${f(by + ux * size * 0.55)}` +
    `L${f(bx + uy * size * 0.55)} ${f(by - ux * size * 0.55)}Z`;
}

function houseRect(n, m, [kind, k]) {
  if (kind === "row") return [0, k, n, 1];
  if (kind === "col") return [k, 0, 1, n];
  return [m * (k % m), m * Math.floor(k / m), m, m];
}

/** A shape's data attributes: what it is, for tests and for people reading the markup. */
function tag(s) {
  return ` data-role="${esc(s.role)}" data-kind="${esc(s.kind)}"` + (s.group !== null && s.group !== undefined
    ? ` data-group="${s.group}"` : "") + (s.row >= 0 ? ` data-cell="${s.row},${s.col}"` : "") +
    (s.value ? ` data-value="${s.value}"` : "");
}

/**
 * One scene as SVG markup, drawn in render/frame.py's order: cell fills, struck-out cells,
 * bands, houses, cell outlines and rings, values, order labels, plain candidates, links and
 * arrows, candidate marks (disk, light, ring, struck, struck-ring, thick, halo), arrowheads.
 */
export function sceneMarkup(scene, theme) {
  const n = scene.n, m = scene.m || Math.round(Math.sqrt(n));
  const shapes = scene.shapes || [];
  const by = (...kinds) => shapes.filter((s) => kinds.includes(s.kind));
  const op = (s) => (s.faint ? ` opacity="${FAINT}"` : "");
  const rS = diskR(m);
  const alphaFill = Number(theme.cells_alpha ?? 0.35), alphaTint = Number(theme.tint_alpha ?? 0.45);
  const ink = (c) => readable(c, theme.background);
  let out = `<rect x="0" y="0" width="${n}" height="${n}" fill="${theme.background}"/>`;
  for (const s of by("fill")) {
    const a = String(s.colour).startsWith("tint") ? alphaTint : alphaFill;
    out += `<rect x="${f(s.col + 0.06)}" y="${f(s.row + 0.06)}" width="0.88" height="0.88" fill="${col(theme, s.colour)}"` +
      ` opacity="${a}"${tag(s)}/>`;
  }
  out += gridMarkup(n, theme);
  for (const s of by("square")) {
    out += `<rect x="${f(s.col + 0.04)}" y="${f(s.row + 0.04)}" width="0.92" height="0.92" fill="${theme.contradiction}"` +
      ` fill-opacity="0.22" stroke="${theme.contradiction}" stroke-width="0.06"${tag(s)}/>`;
  }
  for (const s of by("band")) {
    const pts = s.points.map((p) => `${f(p[0])},${f(p[1])}`).join(" ");
    out += `<polygon points="${pts}" fill="none" stroke="${col(theme, s.colour)}" stroke-width="0.22" opacity="0.35"` +
      ` stroke-linejoin="round"${tag(s)}/>`;
  }
  const houseStyles = {solid: [0.045, ""], dashed: [0.045, [5, 3]], dotted: [0.04, [1.5, 2.5]], thick: [0.07, ""]};
  by("solid", "dashed", "dotted", "thick").filter((s) => s.house).forEach((s, i) => {
    const [x, y, w, h] = houseRect(n, m, s.house);
    const inset = 0.05 + 0.04 * (i % 3);
    const [lw, dash] = houseStyles[s.kind];
    out += `<rect x="${f(x + inset)}" y="${f(y + inset)}" width="${f(w - 2 * inset)}" height="${f(h - 2 * inset)}"` +
      ` rx="0.3" fill="none" stroke="${col(theme, s.colour)}" stroke-width="${lw}"` +
      (dash ? ` stroke-dasharray="${dash.map((d) => f(d * lw)).join(" ")}"` : "") + `${op(s)}${tag(s)}/>`;
  });
  for (const s of by("outline")) {
    out += `<rect x="${f(s.col + 0.07)}" y="${f(s.row + 0.07)}" width="0.86" height="0.86" fill="none"` +
      ` stroke="${col(theme, s.colour)}" stroke-width="0.07"${tag(s)}/>`;
  }
  for (const s of by("circle")) {
    out += `<circle cx="${s.col + 0.5}" cy="${s.row + 0.5}" r="0.4" fill="none" stroke="${col(theme, s.colour)}"` +
      ` stroke-width="0.045"${tag(s)}/>`;
  }
  for (const s of by("value")) {
    out += `<g${tag(s)}>` + text(s.col + 0.5, s.row + 0.5, VALUE_H, charOf(s.value), ink(col(theme, s.colour)),
      {bold: s.role === "placed"}) + "</g>";
  }
  for (const s of by("label")) {
    out += `<g${tag(s)}>` + text(s.col + 0.1 + 0.075 * s.text.length, s.row + 0.16, 0.17, s.text, ink(theme.place),
      {bold: true}) + "</g>";
  }
  for (const s of by("candidate")) {
    const [x, y] = spot(n, s.row, s.col, s.value);
    out += text(x, y, candH(m), charOf(s.value), theme.candidate, {bold: m >= 4, cls: "cand"});
  }
  const lwLink = 0.035 * Math.min(1, Math.sqrt(3 / m));
  let heads = "";
  for (const s of by("weak", "strong", "arrow")) {
    if (!s.points || s.points.length < 2) continue;
    const pts = clipEnds(n, s.points, rS * (s.kind === "arrow" ? 1.2 : LINK_CLEAR));
    const lw = lwLink * (s.kind === "arrow" ? 1.15 : 1);
    const dash = s.kind === "weak" ? ` stroke-dasharray="${f(4 * lw)} ${f(2.5 * lw)}"` : "";
    out += `<path d="${curve(pts)}" fill="none" stroke="${col(theme, s.colour)}" stroke-width="${f(lw)}"` +
      ` stroke-linecap="round"${dash}${op(s)}${tag(s)}/>`;
    if (s.directed) {
      let length = 0;
      for (let k = 1; k < pts.length; k++) length += Math.hypot(pts[k][0] - pts[k - 1][0], pts[k][1] - pts[k - 1][1]);
      heads += `<path d="${head(pts, Math.min(rS * 1.1, 0.4 * length))}" fill="${col(theme, s.colour)}"${op(s)}` +
        ` data-role="${esc(s.role)}" data-kind="head"/>`;
    }
  }
  const digit = (s, x, y, fill) => text(x, y, markH(m), charOf(s.value), fill, {bold: true});
  for (const s of by("disk", "light", "ring", "struck-ring", "struck")) {
    const [x, y] = spot(n, s.row, s.col, s.value);
    const c = col(theme, s.colour);
    let g = `<g${tag(s)}${op(s)}>`;
    if (s.kind === "disk" || s.kind === "struck") {
      g += `<circle cx="${f(x)}" cy="${f(y)}" r="${f(rS)}" fill="${c}"/>` + digit(s, x, y, digitOn(c));
    } else if (s.kind === "light") {
      g += `<circle cx="${f(x)}" cy="${f(y)}" r="${f(rS)}" fill="${c}" stroke="${theme.off_ring}" stroke-width="0.025"/>` +
        digit(s, x, y, digitOn(c));
    } else {
      g += `<circle cx="${f(x)}" cy="${f(y)}" r="${f(rS * 0.92)}" fill="${theme.background}" stroke="${c}"` +
        ` stroke-width="0.03"/>` + digit(s, x, y, ink(c));
    }
    if (s.kind === "struck" || s.kind === "struck-ring") {
      const d = rS * 0.92;
      g += `<path d="M${f(x - d)} ${f(y + d)}L${f(x + d)} ${f(y - d)}" stroke="${s.kind === "struck" ? theme.strike : c}"` +
        ` stroke-width="${f(Math.max(0.02, 0.032 * Math.sqrt(3 / m)))}" stroke-linecap="round"/>`;
    }
    out += g + "</g>";
  }
  for (const s of by("thick", "halo")) {
    const [x, y] = spot(n, s.row, s.col, s.value);
    const [r, lw] = s.kind === "thick" ? [rS * 1.3, 0.07 * Math.min(1, 3 / m)] : [rS * 1.18, 0.06];
    out += `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r)}" fill="none" stroke="${col(theme, s.colour)}"` +
      ` stroke-width="${f(lw)}"${op(s)}${tag(s)}/>`;
  }
  return out + heads;
}

export function viewBox(n) {
  return `${-MARGIN} ${-MARGIN} ${n + MARGIN + 0.05} ${n + MARGIN + 0.05}`;
}
