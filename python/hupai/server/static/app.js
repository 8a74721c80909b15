// hupai fan calculator: a plain ES module, no build step. Every rule is the server's (the Rust core
// through /v1/parse, /v1/waits and /v1/score); this file keeps the hand, draws it and asks.
// - the preset list, each preset's tiles (its palette), flowers and example come from /v1/variants;
// - the notation box is read by the core (POST /v1/parse): any notation it reads works, and its
//   error is shown under the box when it refuses the text;
// - every answer is the one Score shape: fans (zh, en, value, op, count), total + unit, payments
//   between the seats, decomposition, extras.

import { el, piece, setNames } from "/static/board.js";

const $ = (id) => document.getElementById(id);
const UNIT_ZH = { fan: "番", multiplier: "倍", point: "分", huxi: "胡息" };
const SEAT_ZH = ["東", "南", "西", "北"];
const WINDS = { E: "東 E", S: "南 S", W: "西 W", N: "北 N" };
// checkboxes of the tile form: situation keys sent as true when ticked
const FLAGS = ["fourth_tile", "wall_last", "dealer"];
// 字牌 melds by click mode (吃 / 碰 / 跑 / 提)
const ZIPAI_MELD = { chow: "chi", pung: "peng", kong: "pao", ckong: "ti" };
const ZIPAI_CARDS = 20; // cards a 字牌 hand holds before the winning card (melds count 3)
const STANDING = 13; // tiles a mahjong hand holds before the winning tile (melds count 3)

const state = { variant: "mcr", concealed: [], melds: [], win: null, flowers: [] };
const PRESETS = {}; // id -> the /v1/variants entry (input, players, tiles, flowers, example, ...)

const preset = () => PRESETS[state.variant] || { input: "tiles", players: 4, tiles: [], flowers: [] };
const isZipai = () => preset().input === "zipai";
// a preset whose input this page cannot click together: the notation field is the request's hand
const isRaw = () => !["tiles", "zipai"].includes(preset().input);
const order = (t) => {
  const i = preset().tiles.indexOf(t);
  return i < 0 ? 1000 : i;
};
const sortTiles = (ts) => [...ts].sort((a, b) => order(a) - order(b));

function img(tile, onClick) {
  const el = document.createElement("img");
  el.src = `/static/tiles/${tile}.svg`;
  el.alt = tile;
  el.title = tile;
  el.dataset.tile = tile;
  if (onClick) el.addEventListener("click", onClick);
  return el;
}

// ---- writing a hand as text (the core reads it back): "[EEE,1][1111m]456p78s99s+9s"
function compact(tiles) {
  let out = "";
  let digits = "";
  let suit = null;
  for (const t of sortTiles(tiles)) {
    const m = /^([1-9])([mps])$/.exec(t);
    if (m) {
      if (suit && suit !== m[2]) { out += digits + suit; digits = ""; }
      digits += m[1];
      suit = m[2];
    } else {
      if (suit) { out += digits + suit; digits = ""; suit = null; }
      out += t;
    }
  }
  if (suit) out += digits + suit;
  return out;
}

function handText(withWin = true) {
  const win = withWin && state.win ? `+${state.win}` : "";
  if (isZipai()) {
    const melds = state.melds.map((m) => `[${m.type}:${m.tiles.join("")}]`).join("");
    return melds + sortTiles(state.concealed).join("") + win;
  }
  const melds = state.melds.map((m) => `[${compact(m.tiles)}${m.concealed ? "" : `,${m.offer || 1}`}]`).join("");
  return melds + compact(state.concealed) + win;
}

// ---- talking to the service
async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { ok: r.ok, data: await r.json() };
}

function setForm(form) {
  if (isZipai()) {
    if (form.win_type) $("zipai_win_type").value = form.win_type;
    return;
  }
  $("win_type").value = form.win_type || "discard";
  $("seat_wind").value = form.seat_wind || "E";
  $("prevalent_wind").value = form.prevalent_wind || "E";
  FLAGS.forEach((k) => { $(k).checked = !!form[k]; });
  state.flowers = Array.isArray(form.flower_tiles) ? form.flower_tiles.map(String) : [];
}

// Read `text` (and a situation) through the core and load it into the page; the core's error is
// shown under the box when it refuses. Returns whether the hand was read.
async function load(text, situation) {
  const r = await post("/v1/parse", { variant: state.variant, hand: text, ...(situation ? { situation } : {}) });
  if (!r.ok) {
    $("notation-error").textContent = r.data.message || "the hand could not be read";
    $("notation").value = text;
    return false;
  }
  const d = r.data;
  Object.assign(state, { concealed: d.concealed, melds: d.melds, win: d.win_tile });
  if (situation) {
    setForm(d.form);
    $("more").value = Object.keys(d.more).length ? JSON.stringify(d.more) : "";
  }
  $("notation-error").textContent = "";
  return true;
}

// the situation keys of the form, then those of the "more" JSON field (which win)
function situation() {
  let s;
  if (isRaw()) {
    s = {}; // a card game's situation is only what the JSON field says (the tile form is hidden)
  } else if (isZipai()) {
    s = { win_card: state.win, win_type: $("zipai_win_type").value, melds: state.melds.map((m) => `${m.type}:${m.tiles.join("")}`) };
  } else {
    s = { win_type: $("win_type").value };
    for (const k of ["seat_wind", "prevalent_wind"]) if ($(k).value !== "E") s[k] = $(k).value;
    FLAGS.forEach((k) => { if ($(k).checked) s[k] = true; });
    if (state.flowers.length) s.flower_tiles = sortFlowers(state.flowers);
  }
  const more = $("more").value.trim();
  if (more) {
    const extra = JSON.parse(more); // a SyntaxError is shown as the error
    if (typeof extra !== "object" || extra === null || Array.isArray(extra)) throw new SyntaxError("more keys: a JSON object, e.g. {\"void_suit\": \"m\"}");
    Object.assign(s, extra);
  }
  return s;
}

const sortFlowers = (fs) => [...fs].sort((a, b) => preset().flowers.indexOf(a) - preset().flowers.indexOf(b));

// ---- URL: #v=mcr&h=[EEE,1]123m456p7899s+9s&wt=self_draw&f=wall_last&sw=S&pw=E&fw=f1,f5&x={...}
// Values are percent-escaped only where they must be; '+' is a '+' (never a space), so a link
// written by hand with a literal '+' opens as written.
const enc = (v) => encodeURIComponent(v).replace(/%(5B|5D|2B|2C|3A)/g, (m) => decodeURIComponent(m));

function hashParams(hash) {
  const out = {};
  for (const part of hash.replace(/^#/, "").split("&")) {
    if (!part) continue;
    const i = part.indexOf("=");
    const k = i < 0 ? part : part.slice(0, i);
    const v = i < 0 ? "" : part.slice(i + 1);
    try { out[decodeURIComponent(k)] = decodeURIComponent(v); } catch { out[k] = v; }
  }
  return out;
}

function writeUrl() {
  const p = [["v", state.variant], ["h", isRaw() ? $("notation").value : handText()]];
  if (isZipai()) {
    p.push(["wt", $("zipai_win_type").value]);
  } else if (!isRaw()) {
    p.push(["wt", $("win_type").value]);
    const f = FLAGS.filter((k) => $(k).checked);
    if (f.length) p.push(["f", f.join(",")]);
    if ($("seat_wind").value !== "E") p.push(["sw", $("seat_wind").value]);
    if ($("prevalent_wind").value !== "E") p.push(["pw", $("prevalent_wind").value]);
    if (state.flowers.length) p.push(["fw", sortFlowers(state.flowers).join(",")]);
  }
  if ($("more").value.trim()) p.push(["x", $("more").value.trim()]);
  // the analyser's question (card presets): ah / ap / aa
  if (preset().analyse_example) for (const k of AN_FIELDS) if ($(`an-${k}`).value.trim()) p.push([`a${k[0]}`, $(`an-${k}`).value.trim()]);
  const hash = "#" + p.map(([k, v]) => `${k}=${enc(v)}`).join("&");
  if (location.hash !== hash) history.replaceState(null, "", hash);
  $("share").href = location.href;
}

// the situation a link names (also the keys of older links: f=self_drawn,…, fl=2, zw=…, vs=m)
function urlSituation(p) {
  const s = {};
  if (p.wt || p.zw) s.win_type = p.wt || p.zw;
  for (const k of (p.f || "").split(",")) if (k) s[k] = true;
  if (p.sw) s.seat_wind = p.sw;
  if (p.pw) s.prevalent_wind = p.pw;
  if (p.fw) s.flower_tiles = p.fw.split(",").filter(Boolean);
  if (p.fl && +p.fl) s.flowers = +p.fl;
  if (p.vs) s.void_suit = p.vs;
  if (p.x) {
    try { Object.assign(s, JSON.parse(p.x)); } catch { $("more").value = p.x; }
  }
  return s;
}

async function readUrl() {
  const p = hashParams(location.hash);
  if (p.v && PRESETS[p.v]) state.variant = p.v;
  else if (p.v) $("error").textContent = `unknown preset ${JSON.stringify(p.v)} in the link`;
  $("variant").value = state.variant;
  showPreset();
  if (isRaw()) {
    $("notation").value = p.h || "";
    if (p.x) $("more").value = p.x;
    if (preset().analyse_example) {
      for (const k of AN_FIELDS) $(`an-${k}`).value = p[`a${k[0]}`] || "";
      if (p.ah) await analyse();
    }
    return;
  }
  if (p.h !== undefined) await load(p.h, urlSituation(p));
}

// ---- editing
function mode() { return document.querySelector('input[name="mode"]:checked').value; }

function add(tile) {
  const m = mode();
  if (m === "win") state.win = tile;
  else if (m === "tile") state.concealed.push(tile);
  else if (isZipai()) {
    const k = tile.match(/^([xd])(\d+)$/);
    if (m === "chow") {
      const ts = [0, 1, 2].map((i) => `${k[1]}${+k[2] + i}`);
      if (!ts.every((t) => preset().tiles.includes(t))) return;
      state.melds.push({ type: ZIPAI_MELD[m], tiles: ts, concealed: false });
    } else {
      state.melds.push({ type: ZIPAI_MELD[m], tiles: Array(m === "pung" ? 3 : 4).fill(tile), concealed: m === "ckong" });
    }
  } else if (m === "chow") {
    const k = tile.match(/^([1-9])([mps])$/);
    const ts = k ? [0, 1, 2].map((i) => `${+k[1] + i}${k[2]}`) : [];
    if (!ts.length || !ts.every((t) => preset().tiles.includes(t))) return;
    state.melds.push({ type: "chow", tiles: ts, concealed: false, offer: 1 });
  } else {
    const n = m === "pung" ? 3 : 4;
    state.melds.push({ type: n === 3 ? "pung" : "kong", tiles: Array(n).fill(tile), concealed: m === "ckong", offer: m === "ckong" ? 0 : 1 });
  }
  update();
}

function toggleFlower(f) {
  const i = state.flowers.indexOf(f);
  if (i >= 0) state.flowers.splice(i, 1);
  else state.flowers.push(f);
  update();
}

function renderHand() {
  if (isRaw()) return;
  const melds = $("melds");
  melds.replaceChildren();
  state.melds.forEach((m, i) => {
    const box = document.createElement("div");
    box.className = "meld" + (m.concealed ? " concealed" : "");
    m.tiles.forEach((t) => box.append(img(t, () => { state.melds.splice(i, 1); update(); })));
    melds.append(box);
  });
  const conc = $("concealed");
  conc.replaceChildren();
  sortTiles(state.concealed).forEach((t) => conc.append(img(t, () => {
    state.concealed.splice(state.concealed.indexOf(t), 1);
    update();
  })));
  $("win").replaceChildren(...(state.win ? [img(state.win, () => { state.win = null; update(); })] : []));
  $("flowers-held").replaceChildren(...sortFlowers(state.flowers).map((f) => img(f, () => toggleFlower(f))));
  for (const el of document.querySelectorAll("#flower-palette img")) el.classList.toggle("on", state.flowers.includes(el.dataset.tile));
  $("notation").value = handText();
}

// ---- the answer
function cell(tr, values) {
  for (const v of values) {
    const td = document.createElement("td");
    td.textContent = v;
    tr.append(td);
  }
}

const seatName = (i) => (preset().players <= 4 ? `${SEAT_ZH[i]} ${i}` : `#${i}`);

// one row per seat: what it receives (+) or pays (−) in all, and to whom it pays
function showPayments(d) {
  const body = $("payments").querySelector("tbody");
  body.replaceChildren();
  $("payments").hidden = !(d.payments && d.payments.length);
  if ($("payments").hidden) return;
  (d.net || []).forEach((n, i) => {
    const tr = document.createElement("tr");
    tr.className = n > 0 ? "gain" : n < 0 ? "loss" : "";
    tr.dataset.seat = i;
    const pays = d.payments.filter((p) => p.payer === i).map((p) => `${p.amount} → ${seatName(p.payee)}`);
    const gets = d.payments.filter((p) => p.payee === i).length;
    cell(tr, [seatName(i) + (gets && n > 0 ? " 和 winner" : ""), `${n > 0 ? "+" : ""}${n}`, pays.join(", ") || "–"]);
    body.append(tr);
  });
}

function clearScore() {
  $("fans").querySelector("tbody").replaceChildren();
  $("total").textContent = "–";
  $("summary-total").textContent = "–";
  delete $("total").dataset.total;
  for (const id of ["extra", "extras"]) $(id).textContent = "";
  $("payments").hidden = true;
}

function showScore(d, setRows) {
  const tbody = $("fans").querySelector("tbody");
  for (const row of setRows || []) {
    const tr = document.createElement("tr");
    tr.className = "set";
    cell(tr, row);
    tbody.append(tr);
  }
  for (const f of d.fans) {
    const tr = document.createElement("tr");
    cell(tr, [f.zh, f.en, f.op === "mul" ? `×${f.value}` : f.value, f.count]);
    tbody.append(tr);
  }
  const total = `${d.total} ${UNIT_ZH[d.unit] || d.unit}`;
  $("total").textContent = total;
  $("total").dataset.total = d.total;
  $("summary-total").textContent = total;
  const ex = Object.entries(d.extras || {});
  $("extras").textContent = ex.length ? ex.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" · ") : "";
  showPayments(d);
}

let seq = 0;
async function update() {
  renderHand();
  writeUrl();
  const mine = ++seq;
  const err = [];
  let sit;
  try { sit = situation(); } catch (e) { err.push(e.message); }
  let w = null;
  let s = null;
  let status = "";
  if (isRaw()) {
    let hand = $("notation").value.trim();
    try { if (/^[[{]/.test(hand)) hand = JSON.parse(hand); } catch (e) { err.push(e.message); hand = ""; }
    s = hand ? await post("/v1/score", { variant: state.variant, hand, situation: sit || {} }) : null;
    status = `${preset().input}: write the hand in the notation field`;
  } else {
    const held = state.concealed.length + state.melds.length * 3;
    const size = isZipai() ? ZIPAI_CARDS : STANDING;
    const hand = isZipai() ? sortTiles(state.concealed).join("") : handText(false);
    const q = isZipai() ? { hand, melds: sit ? sit.melds : [], variant: state.variant } : { hand, variant: state.variant };
    [w, s] = await Promise.all([
      held === size ? post("/v1/waits", q) : null,
      sit && state.win && held === size ? post("/v1/score", { variant: state.variant, hand: isZipai() ? hand : handText(), situation: sit }) : null,
    ]);
    if (w && w.ok) {
      if (isZipai()) status = w.data.waits.length ? "听牌 ready" : "未听 not ready";
      else status = w.data.shanten === 0 ? "听牌 ready" : `向听 shanten ${w.data.shanten}`;
    } else {
      status = `${held}/${size} ${isZipai() ? "cards" : "tiles"}` + (held === size && !state.win ? " · add the winning tile (和张)" : "");
    }
  }
  if (mine !== seq) return; // a newer edit is in flight
  $("waits").replaceChildren(...(w && w.ok ? w.data.waits.map((t) => img(t)) : []));
  $("shanten").textContent = status;
  if (w && !w.ok) err.push(w.data.message);
  clearScore();
  if (s && s.ok) {
    const d = s.data;
    const sets = isZipai() ? ((d.decomposition && d.decomposition.sets) || []).map((g) => [g.name, g.tiles.join(" ") + (g.declared ? " (明)" : ""), g.huxi, ""]) : [];
    showScore(d, sets);
    const x = d.extras || {};
    const capped = d.raw_total !== d.total ? `封顶 capped from ${d.raw_total}` : "";
    if (isZipai()) {
      $("extra").textContent = d.meets_minimum ? `胡 win · 囤/舵 ${x.duo} · 醒 ${x.xing} · ×${x.multiplier} · 胡分 score ${x.hu_score}` : `未胡 not a win (起胡 ${x.min_huxi} 胡息)`;
    } else {
      $("extra").textContent = [d.meets_minimum ? "" : "未达起和 below the minimum: not a legal win", capped].filter(Boolean).join(" · ");
    }
  } else if (s) err.push(s.data.message);
  $("error").textContent = err.join(" · ");
}

// ---- the card games' analyser (POST /v1/analyse): the core answers, this draws and lets people
// click. The hand's pieces are drawn with the play page's pieces and the core's Chinese names.
const AN_FIELDS = ["hand", "play", "against"];
const an = { data: null, seq: 0 };

function anQuery() {
  const q = { variant: state.variant, hand: $("an-hand").value.trim() };
  for (const k of ["play", "against"]) if ($(`an-${k}`).value.trim()) q[k] = $(`an-${k}`).value.trim();
  return q;
}

// mark up to as many hand pieces as `cards` names (each piece once), with class `cls`
function markCards(cards, cls) {
  const pieces = [...$("an-cards").querySelectorAll(".piece")];
  pieces.forEach((p) => p.classList.remove(cls));
  const used = new Set();
  for (const c of cards) {
    const p = pieces.find((x, i) => !used.has(i) && x.dataset.tile === c);
    if (p) { used.add(pieces.indexOf(p)); p.classList.add(cls); }
  }
}

// clicking a hand piece adds it to (or takes it out of) the play field
function toggleCard(t) {
  t.classList.toggle("sel");
  const sel = [...$("an-cards").querySelectorAll(".piece.sel")].map((p) => p.dataset.tile);
  $("an-play").value = sel.join(" ");
  analyse();
}

function drawAnalysis(d) {
  setNames(Object.fromEntries(d.pieces.map((p) => [p.name, p.zh])));
  const selected = ($("an-play").value.trim() && d.play) ? [...d.play.cards] : [];
  $("an-cards").replaceChildren(...d.hand.cards.map((c) => {
    const t = piece(c, "big");
    t.addEventListener("click", () => toggleCard(t));
    return t;
  }));
  markCards(selected, "sel");
  const line = (head, s) => s ? el("p", { "data-input": head },
    el("b", { text: `${head}: ` }), s.cards.map((c) => piece(c, "tiny")), el("code", { text: s.text }),
    el("span", { text: [s.zh, ...s.readings].filter(Boolean).join(" · ") })) : null;
  $("an-inputs").replaceChildren(...[line("出牌 play", d.play), line("桌上 against", d.against)].filter(Boolean));
  $("an-checks").replaceChildren(...d.checks.map((c) => el("li", { class: c.ok ? "yes" : "no", "data-check": c.id, "data-ok": String(c.ok), text: c.label })));
  $("an-picked").textContent = "";
  $("an-lists").replaceChildren(...d.lists.map((l) => {
    const items = l.items.map((it) => {
      const li = el("li", { "data-move": it.text }, el("code", { text: it.text }), it.cards.map((c) => piece(c, "tiny")), el("span", { class: "lbl", text: it.label }));
      li.addEventListener("click", () => {
        $("an-lists").querySelectorAll("li.on").forEach((x) => x.classList.remove("on"));
        li.classList.add("on");
        markCards(it.cards, "hl");
        $("an-picked").textContent = `选中 selected: ${it.text} — ${it.label}`;
      });
      return li;
    });
    return el("section", { class: "an-list", "data-list": l.id },
      el("h3", { text: `${l.title} (${l.total})` }),
      items.length ? el("ol", {}, items) : el("p", { class: "more", text: "无 none" }),
      l.truncated ? el("p", { class: "more", text: `… ${l.total - l.items.length} more (列出前 ${l.items.length})` }) : null);
  }));
}

async function analyse() {
  if (!preset().analyse_example) return;
  const mine = ++an.seq;
  const r = await post("/v1/analyse", anQuery());
  if (mine !== an.seq) return;
  $("an-error").textContent = r.ok ? "" : `${r.data.field}: ${r.data.message}`;
  document.body.dataset.analysed = String(an.seq);
  if (!r.ok) return;
  an.data = r.data;
  drawAnalysis(r.data);
  writeUrl(); // the link names the question
}

function showAnalyser() {
  const ex = preset().analyse_example;
  $("analyser").hidden = !ex;
  if (!ex) return;
  $("an-what").textContent = preset().name;
  for (const k of AN_FIELDS) $(`an-${k}`).placeholder = ex[k] ? `e.g. ${ex[k]}` : "";
  $("an-hint").textContent = "Write the pieces in the game's notation (the placeholders show the example). "
    + "出牌 play: a selection or a move to check; 桌上 against: what is on the table. Click the hand's pieces to select them, "
    + "and a listed move to see its cards.";
}

function loadAnalyserExample() {
  const ex = preset().analyse_example || {};
  for (const k of AN_FIELDS) $(`an-${k}`).value = ex[k] || "";
  analyse();
}

function showPreset() {
  const p = preset();
  showAnalyser();
  $("flags-tiles").hidden = isZipai() || isRaw();
  $("flags-zipai").hidden = !isZipai();
  $("value-head").textContent = isZipai() ? "胡息" : "值 value";
  $("palette").replaceChildren(...(isRaw() ? [] : p.tiles).map((t) => img(t, () => add(t))));
  $("flower-palette").replaceChildren(...(p.flowers || []).map((f) => img(f, () => toggleFlower(f))));
  $("flower-row").hidden = !(p.flowers || []).length;
  state.flowers = state.flowers.filter((f) => (p.flowers || []).includes(f));
  $("preset-note").textContent = p.description || "";
}

async function init() {
  for (const id of ["seat_wind", "prevalent_wind"]) {
    for (const [k, v] of Object.entries(WINDS)) $(id).append(new Option(v, k));
  }
  const vs = await (await fetch("/v1/variants")).json();
  for (const v of vs) {
    PRESETS[v.id] = v;
    $("variant").append(new Option(`${v.name} · ${v.name_en}`, v.id));
  }
  await readUrl();
  $("variant").addEventListener("change", async () => {
    const input = preset().input;
    state.variant = $("variant").value;
    if (input !== preset().input) {
      Object.assign(state, { concealed: [], melds: [], win: null, flowers: [] });
      $("notation").value = "";
      for (const k of AN_FIELDS) $(`an-${k}`).value = ""; // another game's notation
      for (const id of ["an-cards", "an-inputs", "an-checks", "an-lists"]) $(id).replaceChildren();
      $("an-picked").textContent = "";
      $("an-error").textContent = "";
    } else if ($("an-hand").value.trim()) {
      analyse(); // the same game under other switches or the other preset of it
    }
    $("more").value = ""; // another preset reads other keys
    showPreset();
    // tiles this preset does not have leave the hand (the palette is the core's tile set)
    const known = (t) => preset().tiles.includes(t);
    state.concealed = state.concealed.filter(known);
    state.melds = state.melds.filter((m) => m.tiles.every(known));
    if (state.win && !known(state.win)) state.win = null;
    update();
  });
  document.querySelectorAll(".flags input, .flags select, #more").forEach((el) => el.addEventListener("change", update));
  $("example").addEventListener("click", async () => {
    const ex = preset().example;
    if (!ex) return;
    if (isRaw()) {
      $("notation").value = typeof ex.hand === "string" ? ex.hand : JSON.stringify(ex.hand);
      $("more").value = JSON.stringify(ex.situation || {});
    } else {
      await load(typeof ex.hand === "string" ? ex.hand : JSON.stringify(ex.hand), ex.situation || {});
    }
    update();
  });
  $("an-go").addEventListener("click", analyse);
  $("an-example").addEventListener("click", loadAnalyserExample);
  for (const k of AN_FIELDS) {
    $(`an-${k}`).addEventListener("keydown", (e) => { if (e.key === "Enter") analyse(); });
    $(`an-${k}`).addEventListener("change", analyse);
  }
  $("clear").addEventListener("click", () => { Object.assign(state, { concealed: [], melds: [], win: null, flowers: [] }); update(); });
  const apply = async () => {
    if (isRaw() || (await load($("notation").value.trim()))) update();
  };
  $("apply").addEventListener("click", apply);
  $("notation").addEventListener("keydown", (e) => { if (e.key === "Enter") apply(); });
  window.addEventListener("hashchange", async () => {
    if (location.href === $("share").href) return; // our own write
    await readUrl();
    update();
  });
  document.body.dataset.ready = "1";
  update();
}

init();
