// hupai fan calculator: a plain ES module, no build step. All rules are decided by the server
// (the Rust core through /v1/score and /v1/waits); this file only keeps the hand and renders.
// Tile games (MCR, 四川) use tiles; the 字牌 presets use cards x1..x10 (小) and d1..d10 (大).

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

const isZipai = () => state.variant.startsWith("zipai");
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
  p.set("h", handText());
  if (isZipai()) {
    p.set("zw", $("zipai_win_type").value);
  } else if (state.variant === "sichuan") {
    p.set("wt", $("win_type").value);
    if ($("void_suit").value) p.set("vs", $("void_suit").value);
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
  if (p.get("h")) Object.assign(state, parseHand(p.get("h")));
  const f = (p.get("f") || "").split(",");
  MCR_FLAGS.forEach((k) => { $(k).checked = f.includes(k); });
  if (p.get("sw")) $("seat_wind").value = p.get("sw");
  if (p.get("pw")) $("prevalent_wind").value = p.get("pw");
  $("flowers").value = p.get("fl") || "0";
  if (p.get("wt")) $("win_type").value = p.get("wt");
  $("void_suit").value = p.get("vs") || "";
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

function situation() {
  if (isZipai()) {
    return { win_card: state.win, win_type: $("zipai_win_type").value, melds: zipaiMelds() };
  }
  if (state.variant === "sichuan") {
    const s = { win_type: $("win_type").value };
    if ($("void_suit").value) s.void_suit = $("void_suit").value;
    return s;
  }
  const s = { seat_wind: $("seat_wind").value, prevalent_wind: $("prevalent_wind").value, flowers: +$("flowers").value || 0 };
  MCR_FLAGS.forEach((k) => { s[k] = $(k).checked; });
  return s;
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

// 字牌: one row per group of the decomposition (胡息 each), the 名堂 below, 胡息 as the total
async function updateZipai(mine) {
  const tbody = $("fans").querySelector("tbody");
  const err = [];
  const held = state.concealed.length + state.melds.length * 3;
  const hand = sortTiles(state.concealed).join("");
  const [w, s] = await Promise.all([
    held === ZIPAI_CARDS ? post("/v1/waits", { hand, melds: zipaiMelds(), variant: state.variant }) : null,
    state.win && held === ZIPAI_CARDS ? post("/v1/score", { variant: state.variant, hand, situation: situation() }) : null,
  ]);
  if (mine !== seq) return;
  $("waits").replaceChildren(...(w && w.ok ? w.data.waits.map((t) => img(t)) : []));
  $("shanten").textContent = w && w.ok ? (w.data.waits.length ? "听牌 ready" : "未听 not ready") : `${held}/${ZIPAI_CARDS} cards`;
  if (w && !w.ok) err.push(w.data.message);
  tbody.replaceChildren();
  $("total").textContent = "–";
  delete $("total").dataset.total;
  $("extra").textContent = "";
  if (s && s.ok) {
    const d = s.data;
    for (const g of (d.decomposition && d.decomposition.groups) || []) {
      const tr = document.createElement("tr");
      cell(tr, [g.name, g.cards.join(" ") + (g.exposed ? " (明)" : ""), g.huxi, ""]);
      tbody.append(tr);
    }
    for (const m of d.mingtang || []) {
      const tr = document.createElement("tr");
      cell(tr, [m.name ?? m.id, `名堂 ${m.id}`, m.fan ?? "", ""]);
      tbody.append(tr);
    }
    $("total").textContent = `${d.huxi} 胡息`;
    $("total").dataset.total = d.huxi;
    $("extra").textContent = d.is_win
      ? `胡 win · 囤/舵 ${d.duo} · 醒 ${d.xing} · ×${d.multiplier} · 胡分 score ${d.hu_score} · 每家 per payer ${d.amount_per_payer}`
      : `未胡 not a win (起胡 ${d.min_huxi} 胡息)`;
  } else if (s) err.push(s.data.message);
  $("error").textContent = err.join(" · ");
}

let seq = 0;
async function update() {
  renderHand();
  writeUrl();
  const mine = ++seq;
  if (isZipai()) return updateZipai(mine);
  const tbody = $("fans").querySelector("tbody");
  const err = [];
  const standing = state.concealed.length + state.melds.length * 3;
  const [w, s] = await Promise.all([
    standing === 13 ? post("/v1/waits", { hand: handText(false), variant: state.variant }) : null,
    state.win && standing === 13 ? post("/v1/score", { variant: state.variant, hand: handText(), situation: situation() }) : null,
  ]);
  if (mine !== seq) return; // a newer edit is in flight
  $("waits").replaceChildren(...(w && w.ok ? w.data.waits.map((t) => img(t)) : []));
  $("shanten").textContent = w && w.ok ? (w.data.shanten === 0 ? "听牌 ready" : `向听 shanten ${w.data.shanten}`) : `${standing}/13 tiles`;
  if (w && !w.ok) err.push(w.data.message);
  tbody.replaceChildren();
  $("total").textContent = "–";
  $("extra").textContent = "";
  if (s && s.ok) {
    for (const f of s.data.fans) {
      const tr = document.createElement("tr");
      for (const v of [f.zh, f.en, f.points ?? f.value, f.count]) {
        const td = document.createElement("td");
        td.textContent = v;
        tr.append(td);
      }
      tbody.append(tr);
    }
    const total = s.data.total ?? s.data.fan_total;
    $("total").textContent = total;
    $("total").dataset.total = total;
    if (s.data.meets_minimum === false) $("extra").textContent = "未达起和番 below the minimum";
    if (s.data.per_payer !== undefined) $("extra").textContent = `×${s.data.multiplier} · 每家 per payer ${s.data.per_payer}`;
  } else if (s) err.push(s.data.message);
  $("error").textContent = err.join(" · ");
}

async function init() {
  for (const id of ["seat_wind", "prevalent_wind"]) {
    for (const [k, v] of Object.entries(WINDS)) $(id).append(new Option(v, k));
  }
  const vs = await (await fetch("/v1/variants")).json();
  for (const v of vs.filter((x) => ["mcr", "sichuan", "zipai"].some((p) => x.id.startsWith(p)))) {
    $("variant").append(new Option(`${v.name} · ${v.name_en}`, v.id));
  }
  readUrl();
  $("variant").value = state.variant;
  const showFlags = () => {
    $("flags-mcr").hidden = state.variant === "sichuan" || isZipai();
    $("flags-sichuan").hidden = state.variant !== "sichuan";
    $("flags-zipai").hidden = !isZipai();
    $("fans").querySelector("thead th:nth-child(3)").textContent = isZipai() ? "胡息" : "番";
    $("palette").replaceChildren(...(isZipai() ? CARDS : ALL).map((t) => img(t, () => add(t))));
  };
  showFlags();
  $("variant").addEventListener("change", () => {
    const wasZipai = isZipai();
    state.variant = $("variant").value;
    if (wasZipai !== isZipai()) Object.assign(state, { concealed: [], melds: [], win: null });
    showFlags();
    update();
  });
  document.querySelectorAll(".flags input, .flags select").forEach((el) => el.addEventListener("change", update));
  $("clear").addEventListener("click", () => { Object.assign(state, { concealed: [], melds: [], win: null }); update(); });
  $("apply").addEventListener("click", () => { Object.assign(state, parseHand($("notation").value)); update(); });
  window.addEventListener("hashchange", () => { readUrl(); update(); });
  document.body.dataset.ready = "1";
  update();
}

init();
