// The web table in the browser: draws a table's snapshot from /api/tables/ID around a felt (the other
// seats, the shared zones in the middle, your hand along the bottom), sends the person's moves, asks
// for a hint, and, while the bots think on the server, asks for their moves and shows them one by one
// at the pace the person chose. All text is set as text, never as HTML.
"use strict";

const main = document.getElementById("table");
const tableId = main.dataset.table;
const query = new URLSearchParams(window.location.search);
// Milliseconds between the bots' moves, by pace; ?delay=MS fixes it (0 shows them at once: scripts, tests).
const PACES = { fast: 150, normal: 600, slow: 1400 };
const fixedDelay = query.has("delay") ? Math.max(0, Math.min(5000, Number(query.get("delay")) || 0)) : null;
// Milliseconds between two asks for the bots' moves while they think: short at first, then longer.
const FIRST_POLL = 20;
const LONGEST_POLL = 200;
const PHONE = window.matchMedia("(max-width: 900px)"); // the layout of table.css for phones and narrow windows
let pace = remembered("cardsim-pace", "normal");
let busy = false; // a move is on its way to the server
let skipping = false; // "skip to my turn": draw the bots' moves at once
let shown = null; // the snapshot drawn last
let hint = null; // the hint for the decision shown: {step, action, label, why}, or {step, waiting: true}

function remembered(key, fallback) {
  try {
    const value = window.localStorage.getItem(key);
    return value in PACES ? value : fallback;
  } catch {
    return fallback; // storage refused (private windows): the pace lasts as long as the page
  }
}

function remember(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // the pace is kept for this page only
  }
}

function delay() {
  return fixedDelay ?? PACES[pace];
}

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

function cardImage(face, label) {
  const alt = face === "back" ? "a card face down" : label || face;
  return element("img", { src: `/cards/${encodeURIComponent(face)}.svg`, alt, class: "card", width: 70, height: 100 });
}

// A card of the layout: a button carrying its action when that is one of the person's moves now, else
// a picture (dimmed in the hand when other cards there are playable).
function card(entry, moves) {
  const move = entry.action !== undefined ? moves.get(entry.action) : undefined;
  if (!move) return cardImage(entry.face);
  const button = element("button", { class: "card-button", "data-action": String(move.action), title: move.label });
  button.append(cardImage(entry.face, move.label));
  button.addEventListener("click", () => send(move.action));
  moves.placed.add(move.action);
  return button;
}

function fan(cards, moves, kind, slots = 0) {
  const holder = element("div", { class: `fan ${kind}` });
  if (!slots) {
    for (const entry of cards) holder.append(card(entry, moves));
    return holder;
  }
  // Each card at its place (a suit's ranks: the 7 in the middle), gaps kept for the places not filled.
  const at = new Map(cards.map((entry) => [entry.at, entry]));
  for (let place = 0; place < slots; place += 1) {
    holder.append(at.has(place) ? card(at.get(place), moves) : element("div", { class: "gap" }));
  }
  return holder;
}

// A row of one card repeated (a chain of one stone): the card once, and how many.
function pile(row, moves, kind) {
  const same = row.cards.length > 1 && row.cards.every((entry) => entry.face === row.cards[0].face && entry.action === undefined);
  if (!same) return row.cards.length ? fan(row.cards, moves, kind, row.slots || 0) : element("div", { class: `fan ${kind}` });
  const holder = fan(row.cards.slice(0, 1), moves, kind);
  holder.append(element("span", { class: "times" }, `×${row.cards.length}`));
  return holder;
}

// A row's label; a suit's ("♣ Clubs") as its symbol and its name, which a phone leaves out.
function label(text, style) {
  if (style !== "suits" || !text.includes(" ")) return element("span", { class: "label" }, text);
  const [symbol, ...name] = text.split(" ");
  const holder = element("span", { class: "label" });
  holder.append(element("span", { class: "symbol" }, symbol), element("span", { class: "word" }, ` ${name.join(" ")}`));
  return holder;
}

function zoneRows(zone, moves, kind) {
  const section = element("section", { class: `zone ${zone.style || "rows"}` });
  if (zone.title) section.append(element("h3", {}, zone.title));
  for (const row of zone.rows) {
    const line = element("div", { class: "row" });
    if (row.label) line.append(label(row.label, zone.style));
    if (!row.cards.length && zone.style === "piles") line.append(element("div", { class: "empty card" }));
    else line.append(pile(row, moves, kind));
    if (row.note) line.append(element("span", { class: "note" }, row.note));
    section.append(line);
  }
  if (zone.note) section.append(element("p", { class: "note" }, zone.note));
  return section;
}

// The trick laid out as the seats sit: each card in front of the seat that played it.
function trickZone(zone, moves, positions) {
  const section = element("section", { class: "zone trick" });
  section.append(element("h3", {}, zone.title));
  const cross = element("div", { class: "cross" });
  for (const row of zone.rows) {
    const spot = element("div", { class: "spot", "data-position": positions[row.seat] });
    spot.append(row.cards.length ? fan(row.cards, moves, "mid") : element("div", { class: "empty card" }));
    spot.append(element("span", { class: "label" }, row.note ? `${row.label}: ${row.note}` : row.label));
    cross.append(spot);
  }
  section.append(cross);
  if (zone.note) cross.append(element("p", { class: "note trump" }, zone.note));
  return section;
}

function seatPanel(seat, moves, turn) {
  const panel = element("div", { class: "seat", id: `seat-${seat.position}`, "data-position": seat.position });
  if (turn) panel.setAttribute("data-turn", "");
  const who = element("div", { class: "who" });
  who.append(element("span", { class: "name" }, seat.name), element("span", { class: "score" }, seat.score));
  panel.append(who);
  const held = seat.held === null || seat.held === undefined ? "" : `${seat.held} card${seat.held === 1 ? "" : "s"}`;
  const notes = [...(seat.you ? [] : [held]), ...seat.notes].filter(Boolean);
  if (notes.length) panel.append(element("div", { class: "notes" }, notes.join(" · ")));
  // The hand face down and the zones of one row (a discard pile) side by side; larger zones below.
  const line = element("div", { class: "line" });
  if (seat.cards.length) line.append(fan(seat.cards, moves, "small"));
  for (const zone of seat.zones) (zone.rows.length === 1 ? line : panel).append(zoneRows(zone, moves, "tiny"));
  if (line.children.length) panel.insertBefore(line, panel.children[notes.length ? 2 : 1] || null);
  panel.append(element("div", { class: "did" }, seat.did || "\u00a0"));
  return panel;
}

function drawTable(snapshot, moves) {
  const layout = snapshot.layout;
  const felt = document.getElementById("felt");
  const middle = document.getElementById("middle");
  const positions = layout.seats.map((seat) => seat.position);
  felt.querySelectorAll(".seat").forEach((node) => node.remove());
  felt.dataset.seats = String(layout.seats.length);
  for (const [index, seat] of layout.seats.entries()) {
    if (!seat.you) felt.append(seatPanel(seat, moves, layout.turn === index && !snapshot.game_over));
  }
  middle.replaceChildren(
    ...layout.middle.map((zone) => (zone.style === "trick" ? trickZone(zone, moves, positions) : zoneRows(zone, moves, "mid")))
  );
  const you = layout.seats.findIndex((seat) => seat.you);
  const mine = document.getElementById("you");
  mine.replaceChildren(...(you >= 0 ? [seatPanel(layout.seats[you], moves, false)] : []));
  document.getElementById("mine").toggleAttribute("data-turn", layout.turn === you && !snapshot.game_over);
}

function drawHand(layout, moves) {
  const hand = document.getElementById("hand");
  hand.replaceChildren();
  const notes = [];
  const grouped = layout.hand.length > 1;
  for (const group of layout.hand) {
    const holder = element("div", { class: "group" });
    holder.append(fan(group.cards, moves, "hand"));
    const caption = [group.label, grouped ? group.note : ""].filter(Boolean).join(" · ");
    if (caption && grouped) holder.append(element("span", { class: "label" }, caption));
    hand.append(holder);
    if (group.note && !grouped) notes.push(group.note);
  }
  const playable = hand.querySelector("[data-action]") !== null;
  hand.classList.toggle("choosing", playable);
  const note = document.getElementById("hand-note") || element("p", { id: "hand-note" });
  note.textContent = notes.join(" · ");
  hand.after(note);
}

function moveButton(move) {
  const button = element("button", { class: "move", "data-action": String(move.action), title: move.label });
  if (move.face) button.append(cardImage(move.face, move.label));
  button.append(element("span", {}, move.label));
  button.addEventListener("click", () => send(move.action));
  return button;
}

function drawMoves(snapshot, moves) {
  const holder = document.getElementById("moves");
  holder.replaceChildren();
  for (const move of moves.values()) {
    if (move.action !== "continue" && !moves.placed.has(move.action)) holder.append(moveButton(move));
  }
  const choices = [...moves.values()].filter((move) => move.action !== "continue");
  if (choices.length) {
    const asking = hint && hint.step === snapshot.step && hint.waiting;
    const button = element("button", { type: "button", id: "hint", class: asking ? "waiting" : "" }, `What would best play?`);
    if (asking) button.disabled = true;
    button.addEventListener("click", askHint);
    holder.append(button);
  }
  drawHint(snapshot);
}

function drawHint(snapshot) {
  const line = document.getElementById("hint-line");
  document.querySelectorAll(".hinted").forEach((node) => node.classList.remove("hinted"));
  if (!hint || hint.step !== snapshot.step || hint.waiting) {
    line.hidden = !(hint && hint.step === snapshot.step && hint.waiting);
    line.textContent = line.hidden ? "" : "best is thinking…";
    return;
  }
  line.hidden = false;
  line.textContent = hint.problem || [`best would ${hint.label.charAt(0).toLowerCase()}${hint.label.slice(1)}.`, hint.why].filter(Boolean).join(" ");
  const target = document.querySelector(`[data-action="${CSS.escape(String(hint.action))}"]`);
  if (target) target.classList.add("hinted");
}

function drawBanner(snapshot, showMoves) {
  const banner = document.getElementById("banner");
  banner.replaceChildren();
  banner.removeAttribute("data-game-over");
  const box = element("div", { class: "box" });
  if (snapshot.game_over) {
    banner.setAttribute("data-game-over", snapshot.game_over.result);
    box.append(element("h2", {}, `Game over: ${snapshot.game_over.result}`));
    box.append(element("p", {}, `Winner: ${snapshot.game_over.winners.join(", ")}`));
    // A form, not a link: only a POST from this server's own pages starts a table.
    const again = element("form", { method: "post", action: `/play/${encodeURIComponent(snapshot.game)}`, class: "again" });
    again.append(element("input", { type: "hidden", name: "vs", value: snapshot.opponent }));
    again.append(element("button", { type: "submit" }, "Play again"));
    box.append(again);
    const file = `cardsim-${snapshot.game}-${snapshot.seed}`;
    const downloads = element("p", { class: "downloads" });
    downloads.append(
      element("a", { href: `/api/tables/${tableId}/log.txt`, download: `${file}.txt` }, "Download the log"),
      " · ",
      element("a", { href: `/api/tables/${tableId}/record.json`, download: `${file}.json` }, "the record"),
    );
    box.append(downloads);
    box.append(element("p", {}, "Play the record back in a terminal:"));
    box.append(element("code", {}, `cardsim replay --record ${file}.json`));
  } else if (snapshot.round_over) {
    box.append(element("h2", {}, "End of the round"));
    if (showMoves) for (const move of snapshot.actions) box.append(moveButton(move));
    const lines = element("ul", { class: "lines" });
    for (const text of snapshot.round_over.filter((line) => line.trim())) lines.append(element("li", {}, text));
    box.append(lines);
  }
  banner.append(box);
  banner.hidden = !(snapshot.game_over || snapshot.round_over);
}

function drawSide(snapshot) {
  const scores = document.getElementById("scores");
  scores.replaceChildren();
  for (const entry of snapshot.table.scores) {
    const row = element("tr");
    row.append(element("th", {}, entry.name), element("td", {}, String(entry.score)));
    scores.append(row);
  }
  const facts = document.getElementById("facts");
  facts.replaceChildren(...snapshot.table.facts.map((fact) => element("li", {}, fact)));
  const log = document.getElementById("log");
  const lines = snapshot.log.filter((line) => line.trim());
  log.replaceChildren(...lines.slice(-80).map((line) => element("li", {}, line)));
  log.scrollTop = log.scrollHeight;
}

// Overlaps the cards of every fan just enough for it to fit its width (the hand's groups together).
function fitFans() {
  for (const holder of document.querySelectorAll("#hand, .fan:not(.hand)")) {
    const fans = holder.id === "hand" ? [...holder.querySelectorAll(".fan")] : [holder];
    const cards = fans.reduce((count, one) => count + one.querySelectorAll(":scope > *:not(.times)").length, 0);
    const first = holder.querySelector("img.card, .gap");
    if (!cards || !first) continue;
    const width = first.getBoundingClientRect().width;
    const gaps = holder.id === "hand" ? (fans.length - 1) * 12 : 0;
    const room = (holder.id === "hand" ? holder.clientWidth : holder.parentElement.clientWidth - otherWidth(holder)) - gaps;
    const steps = cards - fans.length;
    const step = steps > 0 ? Math.min(width + 4, (room - fans.length * width) / steps) : width + 4;
    holder.style.setProperty("--step", `${Math.max(5, Math.floor(step))}px`);
  }
}

// The width a fan's neighbours in its row take: its label and note.
function otherWidth(holder) {
  let taken = 0;
  for (const sibling of holder.parentElement.children) {
    if (sibling !== holder) taken += sibling.getBoundingClientRect().width + 8;
  }
  const parent = holder.parentElement;
  const sideBySide = (parent.classList.contains("row") || parent.classList.contains("line")) && getComputedStyle(parent).flexDirection === "row";
  return sideBySide ? taken : 0;
}

function draw(snapshot, showMoves) {
  shown = snapshot;
  const status = document.getElementById("status");
  status.textContent = snapshot.status;
  status.classList.toggle("problem", Boolean(snapshot.ended));
  const moves = new Map(showMoves ? snapshot.actions.map((move) => [move.action, move]) : []);
  moves.placed = new Set();
  drawTable(snapshot, moves);
  drawHand(snapshot.layout, moves);
  drawMoves(snapshot, moves);
  drawBanner(snapshot, showMoves);
  drawSide(snapshot);
  document.getElementById("skip").disabled = !snapshot.thinking;
  fitFans();
}

let wake = null; // ends the pause between the bots' moves at once ("skip to my turn")

function sleep(milliseconds) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

function sayProblem(message) {
  const status = document.getElementById("status");
  status.textContent = message;
  status.classList.add("problem");
}

// The answer to a GET of `url`, or null once its error is shown.
async function ask(url) {
  const response = await fetch(url);
  const answer = await response.json();
  if (response.ok) return answer;
  sayProblem(answer.error);
  return null;
}

// Draws `snapshot` and, while a bot thinks, each step the bots take, until the person is to act.
async function follow(snapshot) {
  let poll = FIRST_POLL;
  skipping = false;
  while (snapshot.thinking) {
    draw(snapshot, false);
    await sleep(skipping ? poll : Math.max(poll, delay()));
    poll = Math.min(LONGEST_POLL, poll * 2);
    const answer = await ask(`/api/tables/${tableId}/steps?after=${snapshot.step}`);
    if (!answer) return;
    if (answer.steps.length > 1) poll = FIRST_POLL;
    for (const step of answer.steps.slice(0, -1)) {
      if (skipping || !delay()) break;
      draw(step.snapshot, false);
      await sleep(delay());
    }
    snapshot = answer.snapshot;
  }
  skipping = false;
  draw(snapshot, true);
}

function lostServer(problem) {
  sayProblem(`The server did not answer (${problem.message}); reload the page to go on.`);
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { response, answer: await response.json() };
}

async function send(action) {
  if (busy) return;
  busy = true;
  hint = null;
  document.querySelectorAll("[data-action]").forEach((node) => (node.disabled = true));
  try {
    const { response, answer } = await post(`/api/tables/${tableId}/actions`, { action });
    if (!response.ok) {
      sayProblem(answer.error);
      const now = await ask(`/api/tables/${tableId}`);
      if (now) await follow(now);
      return;
    }
    await follow(answer.snapshot);
  } catch (problem) {
    lostServer(problem);
  } finally {
    busy = false;
  }
}

async function askHint() {
  if (!shown || (hint && hint.step === shown.step && !hint.problem)) return; // one hint per decision, unless it failed
  const step = shown.step;
  hint = { step, waiting: true };
  draw(shown, true);
  try {
    const { response, answer } = await post(`/api/tables/${tableId}/hint`, {});
    if (!hint || hint.step !== step) return; // the person moved meanwhile
    hint = response.ok ? answer.hint : { step, problem: answer.error };
    hint.step = step;
  } catch (problem) {
    hint = { step, problem: `No hint: the server did not answer (${problem.message}).` };
  }
  if (shown && shown.step === step && !busy) draw(shown, true);
}

async function refresh() {
  try {
    const answer = await ask(`/api/tables/${tableId}`);
    if (answer) await follow(answer);
  } catch (problem) {
    lostServer(problem);
  }
}

const paceChoice = document.getElementById("pace");
paceChoice.value = pace;
paceChoice.addEventListener("change", () => {
  pace = paceChoice.value in PACES ? paceChoice.value : "normal";
  remember("cardsim-pace", pace);
});
document.getElementById("skip").addEventListener("click", () => {
  skipping = true;
  if (wake) wake();
});
// The log folds away on a phone: open on a wide screen, folded on a narrow one (until opened).
const logToggle = document.getElementById("log-toggle");
function foldLog(folded) {
  document.getElementById("log-panel").classList.toggle("folded", folded);
  logToggle.setAttribute("aria-expanded", String(!folded));
  if (!folded) document.getElementById("log").scrollTop = document.getElementById("log").scrollHeight;
}
logToggle.addEventListener("click", () => foldLog(logToggle.getAttribute("aria-expanded") === "true"));
foldLog(PHONE.matches);
window.addEventListener("resize", fitFans);
refresh();
