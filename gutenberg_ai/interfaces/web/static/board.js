// The table drawn from a game's web_board data (its view module): sections of labelled
// groups of items, every item a card, a gear, an ink, a token, a grid... in HTML and SVG.
// One drawing for every game; a game's data says what is where. An item whose moves
// include legal ones is clickable: one move plays it, several open a small menu.

const INK_COLOURS = {
  blue: "#2f5fb3", silver: "#b8bec7", gold: "#d4a62a", red: "#c0392b",
  yellow: "#e5c01e", grey: "#7f8c8d",
};
const SYMBOL_COLOURS = {
  A: "#f4efe4", I: "#f4efe4", O: "#f4efe4", U: "#f4efe4",
  blue: INK_COLOURS.blue, red: INK_COLOURS.red, yellow: INK_COLOURS.yellow, grey: INK_COLOURS.grey,
  typesetting: "#8e6cc0", woodcutting: "#6b8e23", binding: "#a0522d", illuminating: "#d17fb0",
  initiative: "#f1c40f", blank: "#ddd",
};
const SVG = "http://www.w3.org/2000/svg";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

// The legal moves among an item's moves, and the click that plays them.
function clickable(node, actions, ctx) {
  const legal = (actions || []).filter((a) => ctx.legal.has(a));
  if (!legal.length) return node;
  node.classList.add("clickable");
  node.tabIndex = 0;
  node.dataset.actions = legal.join(",");
  // A button to a screen reader and the keyboard (Enter or Space), named by its move,
  // or by what it shows and how many moves its menu has.
  node.setAttribute("role", "button");
  if (legal.length === 1) {
    node.setAttribute("aria-label", ctx.texts.get(legal[0]) || `move ${legal[0]}`);
  } else {
    node.setAttribute("aria-haspopup", "menu");
    node.setAttribute("aria-label", `${node.textContent.trim()}: ${legal.length} moves`);
  }
  const choose = (ev) => {
    ev.stopPropagation();
    if (legal.length === 1) ctx.onAction(legal[0]);
    else openMenu(node, legal, ctx);
  };
  node.addEventListener("click", choose);
  node.addEventListener("keydown", (ev) => {
    if (ev.target !== node || (ev.key !== "Enter" && ev.key !== " ")) return;
    ev.preventDefault();       // (Space would scroll the page)
    choose(ev);
  });
  return node;
}

function openMenu(node, legal, ctx) {
  closeMenus();
  const menu = el("div", "move-menu");
  menu.setAttribute("role", "menu");
  for (const a of legal) {
    const b = el("button", "move", ctx.texts.get(a) || `move ${a}`);
    b.setAttribute("role", "menuitem");
    b.dataset.action = a;
    b.addEventListener("click", (ev) => { ev.stopPropagation(); closeMenus(); ctx.onAction(a); });
    menu.appendChild(b);
  }
  node.appendChild(menu);
  menu.querySelector("button").focus();     // the keyboard goes on in the menu
  setTimeout(() => document.addEventListener("click", closeMenus, { once: true }), 0);
}

export function closeMenus() {
  document.querySelectorAll(".move-menu").forEach((m) => m.remove());
}

function inkDot(colour, size = 14) {
  const s = svg("svg", { width: size, height: size, viewBox: "0 0 10 10", class: "ink-dot" });
  if (colour) s.appendChild(svg("circle", { cx: 5, cy: 5, r: 4.3, fill: INK_COLOURS[colour] || "#999", stroke: "#333", "stroke-width": 0.6 }));
  else s.appendChild(svg("circle", { cx: 5, cy: 5, r: 4.3, fill: "none", stroke: "#aaa", "stroke-dasharray": "1 1" }));
  const t = svg("title"); t.textContent = colour || "empty"; s.appendChild(t);
  return s;
}

// A gear: a circle of its sectors, the active one at the top and shaded.
function gear(item) {
  const box = el("div", "gear" + (item.used ? " used" : ""));
  const n = item.sectors.length;
  const s = svg("svg", { width: 74, height: 74, viewBox: "-37 -37 74 74" });
  for (let k = 0; k < n; k++) {
    const a0 = (-90 - 180 / n + (360 / n) * (k - (item.active ?? 0))) * Math.PI / 180;
    const a1 = a0 + (2 * Math.PI) / n;
    const r = 34;
    const d = `M0 0 L${r * Math.cos(a0)} ${r * Math.sin(a0)} A${r} ${r} 0 0 1 ${r * Math.cos(a1)} ${r * Math.sin(a1)} Z`;
    const path = svg("path", { d, fill: k === item.active ? "#f6d98b" : "#e9e4d8", stroke: "#6b5b3e", "stroke-width": 1 });
    const t = svg("title"); t.textContent = item.sectors[k] + (k === item.active ? " (active)" : ""); path.appendChild(t);
    s.appendChild(path);
  }
  s.appendChild(svg("circle", { cx: 0, cy: 0, r: 7, fill: "#6b5b3e" }));
  box.appendChild(s);
  box.appendChild(el("div", "card-id", item.id + (item.used ? " (used)" : "")));
  const list = el("ol", "sectors");
  item.sectors.forEach((t, k) => list.appendChild(el("li", k === item.active ? "active" : "", t)));
  box.appendChild(list);
  return box;
}

function square(cell, ctx) {
  const td = el("div", "sq");
  if (cell.symbol) {
    td.classList.add("filled");
    td.style.background = SYMBOL_COLOURS[cell.symbol] || "#ccc";
    td.textContent = cell.code;
    td.title = cell.symbol + (cell.token ? " (token)" : "");
    if (cell.token) td.classList.add("token");
  }
  if (cell.shade) td.classList.add("shade");
  return clickable(td, cell.actions, ctx);
}

// A named place of a wide grid (Lead Letter Printers' shops): its full name, and the
// pieces there inside it, each in its player's colour with its words on hover.
function place(cell, ctx) {
  const td = el("div", "sq place");
  if (cell.name) {
    td.classList.add("filled");
    td.appendChild(el("div", "place-name", cell.name));
    const pieces = el("div", "pieces");
    for (const p of cell.pieces || []) {
      const piece = el("span", "piece", p.text);
      piece.style.background = ctx.colours[p.seat % ctx.colours.length];
      piece.title = p.title;
      pieces.appendChild(piece);
    }
    td.appendChild(pieces);
    td.title = [cell.name, ...(cell.pieces || []).map((p) => p.title)].join("\n");
  }
  return clickable(td, cell.actions, ctx);
}

function grid(item, ctx) {
  const box = el("div", "grid-box");
  const width = item.cells.length ? item.cells[0].length : 0;
  const g = el("div", "grid" + (item.wide ? " wide" : ""));
  const numbers = item.numbers !== false;
  const size = item.wide ? "minmax(8em, 10em)" : "30px";
  g.style.gridTemplateColumns = `${numbers ? "22px " : ""}repeat(${width}, ${size})`;
  if (numbers) {
    g.appendChild(el("div", "num"));
    for (let c = 0; c < width; c++) g.appendChild(el("div", "num", item.first_col + c));
  }
  item.cells.forEach((row, r) => {
    if (numbers) g.appendChild(el("div", "num", item.first_row + r));
    row.forEach((cell) => g.appendChild(item.wide ? place(cell, ctx) : square(cell, ctx)));
  });
  box.appendChild(g);
  if (item.note) box.appendChild(el("div", "note", item.note));
  return box;
}

function item(it, ctx) {
  let node;
  switch (it.kind) {
    case "card": case "slot":
      node = el("div", it.kind);
      node.appendChild(el("div", "card-id", it.id || it.text));
      if (it.id) node.appendChild(el("div", "card-text", it.text));
      if (it.note) node.appendChild(el("div", "note", it.note));
      break;
    case "pcard": {
      node = el("div", "pcard" + (it.vertical ? " vertical" : ""));
      node.appendChild(el("div", "card-id", "card " + it.id));
      const sq = el("div", "pcard-squares");
      it.squares.forEach((q) => sq.appendChild(square({ symbol: q.symbol, code: q.code, actions: [] }, ctx)));
      node.appendChild(sq);
      break;
    }
    case "order":
      node = el("div", "order");
      node.appendChild(el("div", "card-id", it.id));
      it.cards.forEach((c) => node.appendChild(item(c, { ...ctx, legal: new Set() })));
      break;
    case "inkset":
      node = el("div", "inkset");
      node.appendChild(el("div", "card-id", it.id));
      it.inks.forEach((c) => node.appendChild(inkDot(c, 18)));
      break;
    case "ink":
      node = el("span", "ink");
      node.appendChild(inkDot(it.colour));
      node.appendChild(el("span", "", it.count !== undefined ? ` ${it.colour} ${it.count}` : ` ${it.colour}`));
      if (it.note) node.appendChild(el("span", "note", ` (${it.note})`));
      break;
    case "letter":
      node = el("span", "letter", it.text);
      break;
    case "token":
      node = el("span", "token-item" + (it.down ? " down" : ""));
      node.appendChild(square({ symbol: it.symbol, code: it.code, actions: [] }, ctx));
      break;
    case "hidden":
      node = el("div", "hidden-item", it.text);
      node.title = "hidden from you";
      break;
    case "gear":
      node = gear(it);
      break;
    case "grid":
      node = grid(it, ctx);
      break;
    case "track": {
      node = el("div", "track");
      if (it.label) node.appendChild(el("span", "track-label", it.label));
      const s = svg("svg", { width: 120, height: 12, viewBox: "0 0 120 12" });
      s.appendChild(svg("rect", { x: 0, y: 1, width: 120, height: 10, fill: "#eee", stroke: "#bbb" }));
      s.appendChild(svg("rect", { x: 0, y: 1, width: Math.max(0, Math.min(120, (120 * it.value) / (it.max || 1))), height: 10, fill: "#8a6d3b" }));
      node.appendChild(s);
      node.appendChild(el("span", "track-value", it.note ? `${it.value} (${it.note})` : it.value));
      break;
    }
    default:
      node = el("span", "chip" + (it.dim ? " dim" : ""), it.text);
      if (it.note) node.appendChild(el("span", "note", ` ${it.note}`));
  }
  if (it.dim) node.classList.add("dim");
  return clickable(node, it.actions, ctx);
}

// Draw `board` into `root`. ctx: {legal: Set of actions, texts: Map action -> words,
// onAction(action), colours: each player's colour}.
export function drawBoard(root, board, ctx) {
  ctx = { legal: new Set(), texts: new Map(), onAction: () => {}, colours: ["#7a6a55"], ...ctx };
  root.replaceChildren();
  root.appendChild(el("h2", "heading", board.heading));
  if (board.text) {             // a game without a web_board: its terminal table
    root.appendChild(el("pre", "text-board", board.text));
    return;
  }
  for (const section of board.sections) {
    const sec = el("section", "board-section" + (section.mine ? " mine" : ""));
    if (section.seat !== undefined) sec.dataset.seat = section.seat;
    sec.appendChild(el("h3", "", section.title));
    for (const group of section.groups) {
      const row = el("div", "group");
      row.appendChild(el("div", "group-label", group.label));
      const items = el("div", "items");
      if (!group.items.length) items.appendChild(el("span", "dim", "none"));
      group.items.forEach((it) => items.appendChild(item(it, ctx)));
      row.appendChild(items);
      sec.appendChild(row);
    }
    root.appendChild(sec);
  }
}
