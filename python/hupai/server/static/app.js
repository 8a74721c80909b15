// hupai fan calculator: a plain ES module, no build step. All rules are decided by the server
// (the Rust core through /v1/score and /v1/waits); this file only keeps the hand and renders.
// Every scoring preset of /v1/variants is listed; a preset whose input is "tiles" uses tiles, one
// whose input is "zipai" (字牌) uses cards x1..x10 (小) and d1..d10 (大). Every answer is the one
// Score shape: fans (zh, en, value, op, count), total + unit, payments, decomposition, extras.

const SUITS = ["m", "p", "s"];
const HONOURS = ["E", "S", "W", "N", "C", "F", "P"];
const ALL = [...SUITS.flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${n}${s}`)), ...HONOURS];
const WINDS = { E: "東 E", S: "南 S", W: "西 W", N: "北 N" };
const CARDS = ["x", "d"].flatMap((k) => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `${k}${n}`));
const MCR_FLAGS = ["self_drawn", "fourth_tile", "about_kong", "wall_last"];
// 字牌 melds by click mode (吃 / 碰 / 跑 / 提), and the cards a 字牌 hand holds before the winning card
const ZIPAI_MELD = { chow: "chi", pung: "peng", kong: "pao", ckong: "ti" };
const ZIPAI_CARDS = 20;
const $ = (id) => document.getElementById(id);

const state = { variant: "mcr", concealed: [], melds: [], win: null };
const PRESETS = {}; // id -> the /v1/variants entry (input, players, example, ...)
const UNIT_ZH = { fan: "番", multiplier: "倍", point: "分", huxi: "胡息" };
const SEAT_ZH = ["東", "南", "西", "北"];

const preset = () => PRESETS[state.variant] || { input: "tiles", players: 4 };
const isZipai = () => preset().input === "zipai";
const isMcr = () => state.variant === "mcr"; // the default preset has the richer form
// a preset whose input this page cannot click together (card games …): the notation field is the
// request's "hand" (text, or JSON), the "more" field its situation
const isRaw = () => !["tiles", "zipai"].includes(preset().input);
const order = (t) => (isZipai() ? CARDS : ALL).indexOf(t);
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

// ---- notation: "[123m,1][EEEE]456p78s99s+9s"
function compact(tiles) {
  let out = "";
  let digits = "";
  let suit = null;
  for (const t of sortTiles(tiles)) {
    if (t.length === 2) {
      if (suit && suit !== t[1]) { out += digits + suit; digits = ""; }
      digits += t[0];
      suit = t[1];
    } else {
      if (suit) { out += digits + suit; digits = ""; suit = null; }
      out += t;
    }
  }
  if (suit) out += digits + suit;
  return out;
}

function zipaiCards(text) {
  return [...text.matchAll(/[xd](?:10|[1-9])/g)].map((m) => m[0]);
}

function handText(withWin = true) {
  if (isZipai()) {
    const melds = state.melds.map((m) => `[${m.type}:${m.tiles.join("")}]`).join("");
    return melds + sortTiles(state.concealed).join("") + (withWin && state.win ? `+${state.win}` : "");
  }
  const melds = state.melds
    .map((m) => `[${compact(m.tiles)}${m.concealed ? "" : ",1"}]`)
    .join("");
  const win = withWin && state.win ? `+${state.win}` : "";
  return melds + compact(state.concealed) + win;
}

function parseTiles(text) {
  const out = [];
  let digits = [];
  for (const ch of text) {
    if (/[1-9]/.test(ch)) digits.push(ch);
    else if (SUITS.includes(ch)) { digits.forEach((d) => out.push(d + ch)); digits = []; }
    else if (HONOURS.includes(ch)) out.push(ch);
  }
  return out;
}

function parseHand(text) {
  if (isZipai()) {
    const melds = [];
    let rest = text.replace(/\[([a-z]+):([^\]]*)\]/g, (_, type, cards) => {
      melds.push({ type, tiles: zipaiCards(cards), concealed: type === "ti" });
      return "";
    });
    let win = null;
    const plus = rest.indexOf("+");
    if (plus >= 0) { win = zipaiCards(rest.slice(plus + 1))[0] || null; rest = rest.slice(0, plus); }
    return { melds, concealed: zipaiCards(rest), win };
  }
  const melds = [];
  let rest = text.replace(/\[([^\]]*)\]/g, (_, inner) => {
    const [tiles, offer] = inner.split(",");
    const ts = parseTiles(tiles);
    const kind = ts.length === 4 ? "kong" : ts[0] === ts[1] ? "pung" : "chow";
    melds.push({ type: kind, tiles: ts, concealed: offer === undefined && kind === "kong" });
    return "";
  });
  let win = null;
  const plus = rest.indexOf("+");
  if (plus >= 0) { win = parseTiles(rest.slice(plus + 1))[0] || null; rest = rest.slice(0, plus); }
  return { melds, concealed: parseTiles(rest), win };
}

// ---- URL: #v=mcr&h=<hand>&f=self_drawn,wall_last&sw=E&pw=E&fl=0&wt=discard&vs=m
function writeUrl() {
  const p = new URLSearchParams();
  p.set("v", state.variant);
  p.set("h", isRaw() ? $("notation").value : handText());
  if ($("more").value.trim()) p.set("x", $("more").value.trim());
  if (isZipai()) {
    p.set("zw", $("zipai_win_type").value);
  } else if (!isMcr()) {
    p.set("wt", $("win_type").value);
  } else {
    const f = MCR_FLAGS.filter((k) => $(k).checked);
    if (f.length) p.set("f", f.join(","));
    p.set("sw", $("seat_wind").value);
    p.set("pw", $("prevalent_wind").value);
    if (+$("flowers").value) p.set("fl", $("flowers").value);
  }
  const hash = "#" + p.toString();
  history.replaceState(null, "", hash);
  $("share").href = location.href;
}

function readUrl() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (p.get("v")) state.variant = p.get("v");
  if (p.get("zw")) $("zipai_win_type").value = p.get("zw");
  if (p.get("h") && isRaw()) $("notation").value = p.get("h");
  else if (p.get("h")) Object.assign(state, parseHand(p.get("h")));
  const f = (p.get("f") || "").split(",");
  MCR_FLAGS.forEach((k) => { $(k).checked = f.includes(k); });
  if (p.get("sw")) $("seat_wind").value = p.get("sw");
  if (p.get("pw")) $("prevalent_wind").value = p.get("pw");
  $("flowers").value = p.get("fl") || "0";
  if (p.get("wt")) $("win_type").value = p.get("wt");
  $("more").value = p.get("x") || (p.get("vs") ? JSON.stringify({ void_suit: p.get("vs") }) : "");
}

// ---- editing
function mode() { return document.querySelector('input[name="mode"]:checked').value; }

function count(tile) {
  const all = [...state.concealed, ...state.melds.flatMap((m) => m.tiles)];
  if (state.win) all.push(state.win);
  return all.filter((t) => t === tile).length;
}

function add(tile) {
  const m = mode();
  if (m === "win") { state.win = tile; }
  else if (m === "tile") {
    if (count(tile) >= 4) return;
    state.concealed.push(tile);
  } else if (isZipai()) {
    const n = +tile.slice(1);
    const ts = m === "chow" ? [0, 1, 2].map((i) => `${tile[0]}${n + i}`) : Array(m === "pung" ? 3 : 4).fill(tile);
    if (m === "chow" && n > 8) return;
    if (ts.some((t) => count(t) + ts.filter((u) => u === t).length > 4)) return;
    state.melds.push({ type: ZIPAI_MELD[m], tiles: ts, concealed: m === "ckong" });
  } else if (m === "chow") {
    if (tile.length !== 2 || +tile[0] > 7) return;
    const ts = [0, 1, 2].map((i) => `${+tile[0] + i}${tile[1]}`);
    if (ts.some((t) => count(t) >= 4)) return;
    state.melds.push({ type: "chow", tiles: ts, concealed: false });
  } else {
    const n = m === "pung" ? 3 : 4;
    if (count(tile) + n > 4) return;
    state.melds.push({ type: n === 3 ? "pung" : "kong", tiles: Array(n).fill(tile), concealed: m === "ckong" });
  }
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
  $("notation").value = handText();
}

// ---- talking to the service
async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { ok: r.ok, data: await r.json() };
}

// the situation keys of the form, then those of the "more" JSON field (which win)
function situation() {
  let s;
  if (isZipai()) {
    s = { win_card: state.win, win_type: $("zipai_win_type").value, melds: zipaiMelds() };
  } else if (!isMcr()) {
    s = { win_type: $("win_type").value };
  } else {
    s = { seat_wind: $("seat_wind").value, prevalent_wind: $("prevalent_wind").value, flowers: +$("flowers").value || 0 };
    MCR_FLAGS.forEach((k) => { s[k] = $(k).checked; });
  }
  const more = $("more").value.trim();
  if (more) {
    const extra = JSON.parse(more); // a SyntaxError is shown as the error
    if (typeof extra !== "object" || extra === null || Array.isArray(extra)) throw new SyntaxError("more keys: a JSON object, e.g. {\"void_suit\": \"m\"}");
    Object.assign(s, extra);
  }
  return s;
}

// load the preset's example (presets/<id>.toml [example]) into the hand and the form
function loadExample() {
  const ex = preset().example;
  if (!ex) return;
  const sit = { ...(ex.situation || {}) };
  if (isRaw()) {
    $("notation").value = typeof ex.hand === "string" ? ex.hand : JSON.stringify(ex.hand);
  } else if (isZipai()) {
    const melds = (sit.melds || []).map((m) => {
      const [type, cards] = m.split(":");
      return { type, tiles: zipaiCards(cards), concealed: type === "ti" };
    });
    Object.assign(state, { concealed: zipaiCards(ex.hand), melds, win: sit.win_card || null });
    if (sit.win_type) $("zipai_win_type").value = sit.win_type;
    for (const k of ["melds", "win_card", "win_type"]) delete sit[k];
  } else {
    Object.assign(state, parseHand(ex.hand));
    if (isMcr()) {
      MCR_FLAGS.forEach((k) => { $(k).checked = !!sit[k]; delete sit[k]; });
    } else if (sit.win_type || sit.self_drawn !== undefined) {
      $("win_type").value = sit.win_type || (sit.self_drawn ? "self_draw" : "discard");
      delete sit.win_type;
      delete sit.self_drawn;
    }
  }
  $("more").value = Object.keys(sit).length ? JSON.stringify(sit) : "";
  update();
}

// the generic parts of every Score: payments (net per seat) and the preset's extras
function showScore(d) {
  const names = (i) => (preset().players <= 4 ? SEAT_ZH[i] : `#${i}`);
  const net = d.net || [];
  $("payments").textContent = d.payments && d.payments.length
    ? "收支 net: " + net.map((n, i) => `${names(i)} ${n > 0 ? "+" : ""}${n}`).join(" · ")
    + " (" + d.payments.map((p) => `${names(p.payer)}→${names(p.payee)} ${p.amount}`).join(", ") + ")"
    : "";
  const ex = Object.entries(d.extras || {});
  $("extras").textContent = ex.length ? ex.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" · ") : "";
}

function clearScore() {
  $("fans").querySelector("tbody").replaceChildren();
  $("total").textContent = "–";
  delete $("total").dataset.total;
  for (const id of ["extra", "payments", "extras"]) $(id).textContent = "";
}

function fanValue(f) {
  return f.op === "mul" ? `×${f.value}` : f.value;
}

function zipaiMelds() {
  return state.melds.map((m) => `${m.type}:${m.tiles.join("")}`);
}

function cell(tr, values) {
  for (const v of values) {
    const td = document.createElement("td");
    td.textContent = v;
    tr.append(td);
  }
}

// 字牌: one row per set of the decomposition (胡息 each), the 名堂 and factors below, 胡息 as the total
async function updateZipai(mine) {
  const tbody = $("fans").querySelector("tbody");
  const err = [];
  const held = state.concealed.length + state.melds.length * 3;
  const hand = sortTiles(state.concealed).join("");
  let sit;
  try { sit = situation(); } catch (e) { err.push(e.message); }
  const [w, s] = await Promise.all([
    held === ZIPAI_CARDS ? post("/v1/waits", { hand, melds: zipaiMelds(), variant: state.variant }) : null,
    sit && state.win && held === ZIPAI_CARDS ? post("/v1/score", { variant: state.variant, hand, situation: sit }) : null,
  ]);
  if (mine !== seq) return;
  $("waits").replaceChildren(...(w && w.ok ? w.data.waits.map((t) => img(t)) : []));
  $("shanten").textContent = w && w.ok ? (w.data.waits.length ? "听牌 ready" : "未听 not ready") : `${held}/${ZIPAI_CARDS} cards`;
  if (w && !w.ok) err.push(w.data.message);
  clearScore();
  if (s && s.ok) {
    const d = s.data;
    for (const g of (d.decomposition && d.decomposition.sets) || []) {
      const tr = document.createElement("tr");
      cell(tr, [g.name, g.tiles.join(" ") + (g.declared ? " (明)" : ""), g.huxi, ""]);
      tbody.append(tr);
    }
    for (const f of d.fans) {
      const tr = document.createElement("tr");
      cell(tr, [f.zh, f.en, fanValue(f), f.count]);
      tbody.append(tr);
    }
    $("total").textContent = `${d.total} ${UNIT_ZH[d.unit] || d.unit}`;
    $("total").dataset.total = d.total;
    const x = d.extras || {};
    $("extra").textContent = d.meets_minimum
      ? `胡 win · 囤/舵 ${x.duo} · 醒 ${x.xing} · ×${x.multiplier} · 胡分 score ${x.hu_score} · 每家 per payer ${d.per_payer}`
      : `未胡 not a win (起胡 ${x.min_huxi} 胡息)`;
    showScore(d);
  } else if (s) err.push(s.data.message);
  $("error").textContent = err.join(" · ");
}

// any other input kind: the notation field as the hand, the "more" field as the situation
async function updateRaw(mine) {
  const err = [];
  let body;
  try {
    const text = $("notation").value.trim();
    const hand = /^[[{]/.test(text) ? JSON.parse(text) : text;
    const more = $("more").value.trim();
    body = { variant: state.variant, hand, situation: more ? JSON.parse(more) : {} };
  } catch (e) { err.push(e.message); }
  const s = body && body.hand ? await post("/v1/score", body) : null;
  if (mine !== seq) return;
  $("waits").replaceChildren();
  $("shanten").textContent = `${preset().input}: write the hand in the notation field`;
  clearScore();
  if (s && s.ok) {
    const d = s.data;
    const tbody = $("fans").querySelector("tbody");
    for (const f of d.fans) {
      const tr = document.createElement("tr");
      cell(tr, [f.zh, f.en, fanValue(f), f.count]);
      tbody.append(tr);
    }
    $("total").textContent = `${d.total} ${UNIT_ZH[d.unit] || d.unit}`;
    $("total").dataset.total = d.total;
    $("extra").textContent = `每家 per payer ${d.per_payer}`;
    showScore(d);
  } else if (s) err.push(s.data.message);
  $("error").textContent = err.join(" · ");
}

let seq = 0;
async function update() {
  renderHand();
  writeUrl();
  const mine = ++seq;
  if (isRaw()) return updateRaw(mine);
  if (isZipai()) return updateZipai(mine);
  const tbody = $("fans").querySelector("tbody");
  const err = [];
  const standing = state.concealed.length + state.melds.length * 3;
  let sit;
  try { sit = situation(); } catch (e) { err.push(e.message); }
  const [w, s] = await Promise.all([
    standing === 13 ? post("/v1/waits", { hand: handText(false), variant: state.variant }) : null,
    sit && state.win && standing === 13 ? post("/v1/score", { variant: state.variant, hand: handText(), situation: sit }) : null,
  ]);
  if (mine !== seq) return; // a newer edit is in flight
  $("waits").replaceChildren(...(w && w.ok ? w.data.waits.map((t) => img(t)) : []));
  $("shanten").textContent = w && w.ok ? (w.data.shanten === 0 ? "听牌 ready" : `向听 shanten ${w.data.shanten}`) : `${standing}/13 tiles`;
  if (w && !w.ok) err.push(w.data.message);
  clearScore();
  if (s && s.ok) {
    const d = s.data;
    for (const f of d.fans) {
      const tr = document.createElement("tr");
      cell(tr, [f.zh, f.en, fanValue(f), f.count]);
      tbody.append(tr);
    }
    $("total").textContent = d.unit === "fan" ? `${d.total}` : `${d.total} ${UNIT_ZH[d.unit] || d.unit}`;
    $("total").dataset.total = d.total;
    const capped = d.raw_total !== d.total ? ` (封顶 capped from ${d.raw_total})` : "";
    $("extra").textContent = (d.meets_minimum ? "" : "未达起和 below the minimum · ") + `每家 per payer ${d.per_payer}${capped}`;
    showScore(d);
  } else if (s) err.push(s.data.message);
  $("error").textContent = err.join(" · ");
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
  readUrl();
  $("variant").value = state.variant;
  const showFlags = () => {
    $("flags-mcr").hidden = !isMcr();
    $("flags-tiles").hidden = isMcr() || isZipai() || isRaw();
    $("flags-zipai").hidden = !isZipai();
    $("value-head").textContent = isZipai() ? "胡息" : "值 value";
    $("palette").replaceChildren(...(isRaw() ? [] : isZipai() ? CARDS : ALL).map((t) => img(t, () => add(t))));
  };
  showFlags();
  $("variant").addEventListener("change", () => {
    const input = preset().input;
    state.variant = $("variant").value;
    if (input !== preset().input) {
      Object.assign(state, { concealed: [], melds: [], win: null });
      $("notation").value = "";
    }
    $("more").value = ""; // another preset reads other keys
    showFlags();
    update();
  });
  document.querySelectorAll(".flags input, .flags select, #more").forEach((el) => el.addEventListener("change", update));
  $("example").addEventListener("click", loadExample);
  $("clear").addEventListener("click", () => { Object.assign(state, { concealed: [], melds: [], win: null }); update(); });
  $("apply").addEventListener("click", () => {
    if (!isRaw()) Object.assign(state, parseHand($("notation").value));
    update();
  });
  window.addEventListener("hashchange", () => { readUrl(); update(); });
  document.body.dataset.ready = "1";
  update();
}

init();
