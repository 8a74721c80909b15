// Drawing a table (the JSON of hupai.game.session.board) — shared by the play and replay pages.
// Nothing here decides a rule: the board, the legal actions and their labels come from the server.

let FACES = new Set();

/** The names that have an SVG face in /static/tiles (others are drawn as a CSS tile with the core's name). */
export function setFaces(names) { FACES = new Set(names || []); }

export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of kids.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

let ZH = {};

/** The Chinese names of the pieces of the board being drawn (the core's, sent with the board). */
export function setNames(zh) { ZH = zh || {}; }

/** One piece (its core name, or {name, zh}) as a tile picture; `size` is a class: "big", "small", "tiny". */
export function piece(x, size = "small", extra = "") {
  const p = typeof x === "string" ? { name: x, zh: ZH[x] || x } : { name: x.name, zh: x.zh || ZH[x.name] || x.name };
  const cls = `piece ${size} ${extra}`.trim();
  if (FACES.has(p.name)) {
    return el("img", { class: cls, src: `/static/tiles/${p.name}.svg`, alt: p.zh, title: `${p.zh} ${p.name}`, "data-tile": p.name });
  }
  // a piece without a face (flowers, cards of other games): a drawn tile with the core's Chinese name
  return el("span", { class: `${cls} drawn`, title: `${p.zh} ${p.name}`, "data-tile": p.name }, el("b", { text: p.zh }));
}

export function back(size = "small") { return el("span", { class: `piece ${size} back`, "aria-hidden": "true" }); }

function meldBox(m, size) {
  const tiles = m.tiles.map((p, i) => (m.concealed && (i === 0 || i === 3)) ? back(size) : piece(p, size));
  const tip = m.from ? `${m.kind} ← ${m.from}` : m.kind;
  return el("span", { class: `meld${m.concealed ? " concealed" : ""}`, title: tip }, tiles);
}

const RELATION = { right: "下家", top: "对家", left: "上家" };
// six seats (够级): the next and previous seats, the 对头 across, and the two of one's own 联邦
const RELATION6 = ["", "下家", "联邦", "对头", "联邦", "上家"];

/** Where seat `s` sits seen from `viewer`: bottom, right, top, left (the next seat is on the right). */
export function position(s, viewer, n) {
  const k = (s - viewer + n) % n;
  if (n === 2) return ["bottom", "top"][k];
  if (n === 3) return ["bottom", "right", "left"][k];
  if (n === 6) return ["bottom", "right", "top", "top", "top", "left"][k];  // 够级: three seats across
  return ["bottom", "right", "top", "left"][k] || "top";
}

/**
 * Draw `b` into `root`: one panel per seat around a centre. `opts.viewer` sits at the bottom;
 * `opts.onPiece(name)` makes the viewer's hand clickable; `opts.highlight` names a tile in the
 * viewer's hand to mark (the drawn one).
 */
export function drawBoard(root, b, opts = {}) {
  const viewer = opts.viewer ?? 0;
  setNames(b.zh);
  root.replaceChildren();
  root.className = `board seats-${b.n}`;
  // more than one seat across the table (6 seats): one row in the top area, in turn order
  const across = b.n > 4 ? el("div", { class: "seat-row top" }) : null;
  if (across) root.append(across);
  for (const s of b.seats) {
    const pos = position(s.seat, viewer, b.n);
    const mine = s.seat === viewer && !opts.reveal;
    const size = mine ? "big" : "small";
    let drawnLeft = mine && b.drawn ? 1 : 0;
    const hand = s.hand
      ? s.hand.map((p) => {
          const t = piece(p, size);
          if (drawnLeft && p === b.drawn) { t.classList.add("fresh"); drawnLeft = 0; }
          if (mine && opts.onPiece) {
            const act = opts.onPiece(p);
            if (act) { t.classList.add("can"); t.addEventListener("click", act); }
          }
          return t;
        })
      : Array.from({ length: s.count }, () => back("tiny"));
    const flags = [];
    if (s.dealer) flags.push(el("span", { class: "flag dealer", text: "庄", title: "dealer" }));
    if (s.void) flags.push(el("span", { class: "flag", text: `缺${s.void}`, title: "定缺 void suit" }));
    if (s.declared) flags.push(el("span", { class: "flag", text: "听", title: "declared ready" }));
    if (s.won && s.won.length) flags.push(el("span", { class: "flag won", title: "胡 won on" }, "胡 ", s.won.map((t) => piece(t, "tiny"))));
    if (b.to_act === s.seat && !b.done) flags.push(el("span", { class: "flag turn", text: "●", title: "to act" }));
    const bal = b.result ? b.result.balances[s.seat] : null;
    const head = el("div", { class: "seat-head" },
      el("span", { class: "seat-name", text: s.name + (s.seat === viewer && !opts.reveal ? " (你 you)" : "") }),
      opts.reveal || s.seat === viewer ? null : el("span", { class: "rel", text: (b.n === 6 ? RELATION6[(s.seat - viewer + 6) % 6] : RELATION[pos]) || "" }),
      flags,
      bal !== null ? el("span", { class: `bal ${bal > 0 ? "plus" : bal < 0 ? "minus" : ""}`, text: (bal > 0 ? "+" : "") + bal }) : null);
    const last = b.last_discard;
    const cards = b.family === "cards";  // card games: cards left and the seat's latest decision, not a river
    const river = cards
      ? el("div", { class: "river", "data-last": s.seat },
          el("span", { class: "count", text: `剩 ${s.count} 张 · ` }),
          el("span", { class: b.last_play && b.last_play.seat === s.seat && !b.done ? "last" : "", text: s.last_action || "—" }))
      : el("div", { class: "river" }, s.discards.map((p, i) => {
      const isLast = last && last.seat === s.seat && i === s.discards.length - 1;
      return piece(p, "tiny", isLast ? "last" : "");
    }));
    const panel = el("section", { class: `seat ${pos}${b.to_act === s.seat && !b.done ? " acting" : ""}`, "data-seat": s.seat },
      head,
      el("div", { class: "hand-line" },
        el("div", { class: "hand", "data-hand": s.seat }, hand),
        el("div", { class: "melds" }, s.melds.map((m) => meldBox(m, mine ? "small" : "tiny")),
          s.flowers.length ? el("span", { class: "flowers", title: "花 flowers" }, s.flowers.map((p) => piece(p, "tiny"))) : null)),
      river);
    (across && pos === "top" ? across : root).append(panel);
  }
  const centre = el("section", { class: "centre" },
    el("div", { class: "variant", text: b.name }),
    b.family === "cards" ? null : el("div", { class: "wall", text: `牌墙 ${b.wall}` }),
    b.last_play && !b.done ? el("div", { class: "lastd", "data-last-play": b.last_play.seat }, `${b.last_play.name} `, b.last_play.tiles.map((t) => piece(t, "small"))) : null,
    b.laizi ? el("div", { class: "wall" }, "癞子 ", piece(b.laizi, "tiny")) : null,
    b.last_discard && !b.done ? el("div", { class: "lastd" }, `${b.last_discard.name} 打 `, piece(b.last_discard.tile, "small")) : null,
    b.done ? el("div", { class: "over", text: overText(b) }) : null);
  root.append(centre);
}

/** The centre's line once the hand is over. */
function overText(b) {
  const r = b.result;
  if (r && r.winners.length) return `${r.winners.join(" ")} ${b.family === "cards" ? "赢" : "胡"}`;
  if (b.family === "cards") return r && r.exhausted ? "流局" : r && r.balances.some((v) => v) ? "无赢家 no winner" : "平局 level";
  return "荒庄 draw";
}

/** The settlement: each win with its fans, then the balances and payments (the core's ledger). */
export function drawResult(root, b) {
  root.replaceChildren();
  const r = b.result;
  if (!r) { root.hidden = true; return; }
  root.hidden = false;
  root.append(el("h2", { text: "结算 Settlement" }));
  if (b.family === "cards") {
    // no winner: not played out (流局), played out level (平局), or ended by a penalty (逃跑: the payments say it)
    const level = !r.balances.some((v) => v);
    if (!r.wins.length) root.append(el("p", { class: "no-win", text: r.exhausted ? "流局 — the hand was not played out; nothing is paid." : level ? "平局 — the hand was played out and nobody is ahead." : "无赢家 — no winner; the payments below say why." }));
    if (r.places && r.places.length) {
      root.append(el("ol", { class: "places", title: "走科 finishing order" },
        r.places.map((p) => el("li", { "data-seat": p.seat }, el("b", { text: p.place }), ` ${p.name}`))));
    }
    for (const w of r.wins) {
      const fans = w.fans.map(([f, c]) => `${f}${c > 1 ? "×" + c : ""}`).join("、");
      root.append(el("div", { class: "win-line" }, el("b", { text: `${w.name} 赢 win ` }), el("span", { text: ` · ${w.value}` }),
        fans ? el("div", { class: "fans", text: fans }) : null));
    }
  }
  if (b.family !== "cards" && !r.wins.length) root.append(el("p", { text: r.exhausted ? "荒庄 — the wall ran out, nobody won." : "没有人胡 no win." }));
  for (const w of b.family === "cards" ? [] : r.wins) {
    const how = w.from ? `${w.how} ← ${w.from}` : w.how;
    const fans = w.fans.map(([f, c]) => `${f}${c > 1 ? "×" + c : ""}`).join("、");
    root.append(el("div", { class: "win-line" },
      el("b", { text: `${w.name} 胡 ` }), w.tile ? piece({ name: w.tile, zh: w.zh }, "small") : null,
      el("span", { text: ` ${how} · ${w.value}` }), fans ? el("div", { class: "fans", text: fans }) : null));
  }
  const names = b.seats.map((s) => s.name);
  const table = el("table", { class: "balances" },
    el("thead", {}, el("tr", {}, el("th", { text: "" }), names.map((n) => el("th", { text: n })))),
    el("tbody", {}, el("tr", {}, el("th", { text: "收支 net" }), r.balances.map((v) =>
      el("td", { class: v > 0 ? "plus" : v < 0 ? "minus" : "", "data-balance": String(v), text: (v > 0 ? "+" : "") + v })))));
  root.append(table);
  if (r.payments.length) {
    const list = el("ul", { class: "payments" });
    for (const p of r.payments) list.append(el("li", { text: paymentText(p) }));
    root.append(el("details", { open: r.payments.length <= 12 }, el("summary", { text: `付款 payments (${r.payments.length})` }), list));
  }
}

function paymentText(e) {
  const pays = (e.payments || []).map((p) => `${p.from} → ${p.to} ${p.amount}`).join("，");
  return `${e.reason || e.kind}${pays ? "：" + pays : ""}`;
}

export async function getJSON(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "content-type": typeof body === "string" ? "text/plain" : "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) };
  const r = await fetch(path, init);
  const data = await r.json().catch(() => ({ message: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(data.message || `HTTP ${r.status}`);
  return data;
}
