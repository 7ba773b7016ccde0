// Requests to the server (docs/serve.md): JSON in, JSON out. A request still running after
// 0.4 s shows the progress line and its Cancel button; Cancel aborts it (AbortController).
// One request at a time: a new one cancels the one before (its answer would be stale).

import {t} from "./i18n.js";

export const PROGRESS_AFTER_MS = 400;

export class Cancelled extends Error {}

export class ApiError extends Error {}

let running = null;

/** The busy line's elements: #busy (hidden until 0.4 s), #cancel. */
function busy(show) {
  const box = document.getElementById("busy");
  if (box) box.hidden = !show;
}

export function cancel() {
  if (running) running.abort();
}

export async function getJSON(path) {
  const res = await fetch(path, {headers: {Accept: "application/json"}});
  if (!res.ok) throw new ApiError(await errorLine(res));
  return res.json();
}

async function errorLine(res) {
  try {
    const body = await res.json();
    if (body && body.error) return String(body.error).split("\n")[0];
  } catch {
    // not JSON: the status line says enough
  }
  return `${res.status} ${res.statusText}`;
}

/** POST a JSON body; resolves to the answer, rejects with ApiError (one line) or Cancelled. */
export async function post(path, body) {
  if (running) running.abort();
  const controller = new AbortController();
  running = controller;
  const timer = setTimeout(() => {
    if (running === controller) busy(true);
  }, PROGRESS_AFTER_MS);
  try {
    let res;
    try {
      res = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json", Accept: "application/json"},
        body: JSON.stringify(body), signal: controller.signal});
    } catch (e) {
      if (controller.signal.aborted) throw new Cancelled(t("cancelled"));
      throw new ApiError(t("network", {msg: e.message}));
    }
    if (!res.ok) throw new ApiError(await errorLine(res));
    try {
      return await res.json();
    } catch (e) {
      if (controller.signal.aborted) throw new Cancelled(t("cancelled"));
      throw new ApiError(t("network", {msg: e.message}));
    }
  } finally {
    clearTimeout(timer);
    if (running === controller) {
      running = null;
      busy(false);
    }
  }
}
