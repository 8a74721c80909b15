// The play page: one seat against the built-in bots. The server (the Rust core) deals, offers the
// legal actions, plays the bots and settles; this page draws the board and sends the chosen index.
import { drawBoard, drawResult, el, getJSON, piece, setFaces } from "./board.js";

const $ = (id) => document.getElementById(id);
let state = null; // {id, game, board}
let busy = false;

function params() {
  const h = new URLSearchParams(location.hash.slice(1));
  return { v: h.get("v"), seat: h.get("seat"), seed: h.get("seed"), bots: h.get("bots"), o: h.get("o") };
}

// The preset's switches as controls (from /v1/play/variants: the core's describe()); only the
// changed ones are sent, and the URL names them (o=name:value,...).
function switchControls(v, given) {
  const box = $("switches");
  box.replaceChildren();
  for (const sw of v.switches) {
    const val = sw.name in given ? given[sw.name] : sw.default;
    let input;
    if (typeof sw.default === "boolean") {
      input = el("input", { type: "checkbox", checked: val === true || val === "true" });
    } else if (sw.values && sw.values.length) {
      input = el("select", {}, sw.values.map((x) => el("option", { value: x, text: x })));
      input.value = String(val);
    } else {
      input = el("input", { type: "number", value: String(val), min: sw.min ?? undefined, max: sw.max ?? undefined });
    }
    input.dataset.switch = sw.name;
    box.append(el("label", { title: sw.description }, input, ` ${sw.name}`));
  }
}

function switchValues() {
  const out = {};
  const v = VARIANTS.get($("variant").value);
  for (const sw of v.switches) {
    const input = document.querySelector(`#switches [data-switch="${sw.name}"]`);
    if (!input) continue;
    let val = input.type === "checkbox" ? input.checked : input.value;
    if (typeof sw.default === "number") val = Number(val);
    if (val !== sw.default) out[sw.name] = val;
  }
  return out;
}

function parseOptions(text) {
  const out = {};
  for (const part of (text || "").split(",")) {
    const [k, ...rest] = part.split(":");
    if (!k) continue;
    const x = rest.join(":");
    out[k] = x === "true" ? true : x === "false" ? false : /^-?\d+$/.test(x) ? Number(x) : x;
  }
  return out;
}

function setBusy(on) {
  busy = on;
  document.body.dataset.state = on ? "busy" : state && state.board.done ? "done" : state ? "turn" : "idle";
  for (const b of document.querySelectorAll("#actions button, #deal")) b.disabled = on;
}

function showError(e) { $("error").textContent = e ? String(e.message || e) : ""; }

function prompt(b) {
  const legal = b.legal;
  if (b.done) return "本局结束 The hand is over.";
  if (!legal.length) return "等待 waiting…";
  const kinds = new Set(legal.map((a) => a.kind));
  const last = b.last_discard;
  if (kinds.has("pass") && last) {
    const offers = legal.filter((a) => a.kind !== "pass").map((a) => a.label).join(" / ");
    return el("span", {}, el("b", { text: `${last.name} 打出 ` }), piece(last.tile, "small"),
      el("span", { text: ` — ${offers} 还是 过? Claim it or pass?` }));
  }
  if (kinds.has("exchange")) return "换三张: 选三张同花色的牌 Choose three tiles of one suit to pass.";
  if (kinds.has("declare_void")) return "定缺: 选一门不要的花色 Choose the suit you will not keep.";
  if (b.family === "cards" && b.last_play) return el("span", {}, el("b", { text: `桌面 ${b.last_play.name}: ` }), b.last_play.tiles.map((t) => piece(t, "small")), el("span", { text: " — 轮到你 Your move:" }));
  if (kinds.has("discard")) return kinds.has("win") ? "可以胡! 胡 or discard a tile." : "轮到你: 点一张牌打出 Your turn: click a tile (or a button) to discard.";
  return "轮到你 Your decision:";
}

function render() {
  const b = state.board;
  const seat = state.game.seat;
  const discardOf = new Map();
  for (const a of b.legal) if (a.kind === "discard" && !discardOf.has(a.tile)) discardOf.set(a.tile, a.i);
  drawBoard($("board"), b, { viewer: seat, onPiece: (name) => (discardOf.has(name) ? () => act(discardOf.get(name)) : null) });
  const p = prompt(b);
  $("prompt").replaceChildren(p);
  $("prompt").className = `prompt${b.legal.some((a) => a.kind === "pass") ? " claim" : ""}`;
  const acts = $("actions");
  acts.replaceChildren();
  const other = b.legal.filter((a) => a.kind !== "discard");
  const discards = b.legal.filter((a) => a.kind === "discard");
  for (const a of other) {
    const pics = a.tiles.length ? a.tiles.map((t) => piece(t, "tiny")) : a.tile && a.kind !== "chow" ? [piece(a.tile, "tiny")] : [];
    const text = a.tiles.length ? a.label.split(" ")[0] : a.label;
    acts.append(el("button", { type: "button", class: `act ${a.kind}`, "data-i": a.i, "data-kind": a.kind, title: a.label, onclick: () => act(a.i) }, pics, text));
  }
  if (discards.length) {
    acts.append(el("div", { class: "discard-row" }, discards.map((a) =>
      el("button", { type: "button", class: "act discard", "data-i": a.i, "data-kind": "discard", title: a.label, onclick: () => act(a.i) },
        piece(a.tile, "tiny")))));
  }
  drawResult($("result"), b);
  $("after").hidden = !b.done;
  if (b.done && state.log) {
    const text = state.log.map((r) => JSON.stringify(r)).join("\n") + "\n";
    const a = $("download");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
    a.download = `${state.game.variant}-${state.game.seed}.jsonl`;
    sessionStorage.setItem("hupai-replay-log", text);
  }
  setBusy(false);
}

function addMoves(lines) {
  const ol = $("moves");
  for (const t of lines || []) ol.append(el("li", { text: t }));
  ol.scrollTop = ol.scrollHeight;
}

async function deal(ev) {
  if (ev) ev.preventDefault();
  if (busy) return;
  setBusy(true);
  showError(null);
  const seed = $("seed").value.trim();
  const body = { variant: $("variant").value, seat: Number($("seat").value), bots: $("bots").value, options: switchValues() };
  if (seed !== "") body.seed = Number(seed);
  try {
    state = await getJSON("/v1/play", body);
    $("moves").replaceChildren();
    addMoves(state.events);
    const o = Object.entries(state.game.options).map(([k, x]) => `${k}:${x}`).join(",");
    history.replaceState(null, "", `#v=${state.game.variant}&seat=${state.game.seat}&seed=${state.game.seed}&bots=${state.game.bots}${o ? "&o=" + o : ""}`);
    render();
  } catch (e) { showError(e); setBusy(false); }
}

async function act(i) {
  if (busy || !state) return;
  setBusy(true);
  showError(null);
  try {
    state = await getJSON("/v1/play/act", { id: state.id, game: state.game, choice: i });
    addMoves(state.events);
    render();
  } catch (e) { showError(e); setBusy(false); }
}

function seatOptions() {
  const v = VARIANTS.get($("variant").value);
  const keep = $("seat").value;
  $("seat").replaceChildren(...v.seat_names.map((n, k) => el("option", { value: k, text: n })));
  if (keep && Number(keep) < v.seats) $("seat").value = keep;
}

let VARIANTS = new Map();

async function init() {
  const info = await getJSON("/v1/play/variants");
  setFaces(info.faces);
  VARIANTS = new Map(info.variants.map((v) => [v.id, v]));
  $("variant").replaceChildren(...info.variants.map((v) => el("option", { value: v.id, text: `${v.name} (${v.id})` })));
  const p = params();
  if (p.v && VARIANTS.has(p.v)) $("variant").value = p.v;
  seatOptions();
  switchControls(VARIANTS.get($("variant").value), parseOptions(p.o));
  if (p.seat) $("seat").value = p.seat;
  if (p.seed) $("seed").value = p.seed;
  if (p.bots) $("bots").value = p.bots;
  $("variant").addEventListener("change", () => { seatOptions(); switchControls(VARIANTS.get($("variant").value), {}); });
  $("setup").addEventListener("submit", deal);
  $("again").addEventListener("click", () => { $("seed").value = ""; deal(); });
  document.body.dataset.ready = "1";
  await deal();
}

init().catch(showError);
