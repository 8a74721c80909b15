// The replay viewer: a logged hand step by step. The server rebuilds each step with the Rust core
// (the log checked to replay exactly); this page only draws the boards and moves between them.
import { drawBoard, drawResult, el, getJSON, setFaces } from "./board.js";

const $ = (id) => document.getElementById(id);
let steps = [];
let at = 0;

function showError(e) { $("error").textContent = e ? String(e.message || e) : ""; }

function show(k) {
  if (!steps.length) return;
  at = Math.max(0, Math.min(steps.length - 1, k));
  const b = steps[at];
  drawBoard($("board"), b, { viewer: 0, reveal: true });
  $("slider").value = String(at);
  $("stepno").textContent = `第 ${at} / ${steps.length - 1} 步 step · 决策 decisions ${b.actions}`;
  $("caption").replaceChildren(...(b.caption.length ? b.caption : [at === 0 ? "发牌 the deal" : "—"]).map((t) => el("li", { text: t })));
  drawResult($("result"), b);
  for (const li of document.querySelectorAll("#moves li")) {
    const k = Number(li.dataset.step);
    li.classList.toggle("now", k === at);
    li.classList.toggle("later", k > at);
  }
  const now = document.querySelector("#moves li.now");
  if (now) now.scrollIntoView({ block: "nearest" });
  $("prev").disabled = $("first").disabled = at === 0;
  $("next").disabled = $("last").disabled = at === steps.length - 1;
  document.body.dataset.step = String(at);
  document.body.dataset.last = at === steps.length - 1 ? "1" : "0";
}

function load(data, source) {
  steps = data.steps;
  $("slider").max = String(steps.length - 1);
  $("source").textContent = source;
  document.body.dataset.steps = String(steps.length);
  $("moves").replaceChildren(...steps.flatMap((b, k) => b.caption.map((t) =>
    el("li", { text: t, "data-step": String(k), onclick: () => show(k) }))));
  show(0);
}

async function open(text, source) {
  showError(null);
  try { load(await getJSON("/v1/replay", text), source); } catch (e) { showError(e); }
}

async function init() {
  const info = await getJSON("/v1/play/variants");
  setFaces(info.faces);
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(at - 1));
  $("next").addEventListener("click", () => show(at + 1));
  $("last").addEventListener("click", () => show(steps.length - 1));
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.key === "ArrowRight") show(at + 1);
    else if (e.key === "ArrowLeft") show(at - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(steps.length - 1);
  });
  $("file").addEventListener("change", async () => {
    const f = $("file").files[0];
    if (f) await open(await f.text(), "");
  });
  document.body.dataset.ready = "1";
  if (location.hash === "#session" && sessionStorage.getItem("hupai-replay-log")) {
    await open(sessionStorage.getItem("hupai-replay-log"), "本局 the hand just played");
  } else {
    try {
      const data = await getJSON("/v1/replay/preloaded");
      load(data, data.path);
    } catch { /* no preloaded log: wait for an upload */ }
  }
  document.body.dataset.loaded = "1";
}

init().catch(showError);
