// The web table in the browser: draws a table's snapshot from /api/tables/ID, sends the person's
// moves, and, while the bots think on the server, asks for their moves and shows them one by one.
// All text is set as text, never as HTML.
"use strict";

const main = document.getElementById("table");
const tableId = main.dataset.table;
const query = new URLSearchParams(window.location.search);
// Milliseconds between the bots' moves; ?delay=0 shows them at once (scripts and tests).
const delay = Math.max(0, Math.min(5000, Number(query.get("delay") ?? 450) || 0));
// Milliseconds between two asks for the bots' moves while they think.
const POLL = 100;
let busy = false;

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

function cardImage(face, label) {
  return element("img", { src: `/cards/${encodeURIComponent(face)}.svg`, alt: label || face, class: "card", width: 56, height: 80 });
}

function drawZones(zones) {
  const holder = document.getElementById("zones");
  holder.replaceChildren();
  for (const zone of zones) {
    const section = element("section", { class: "zone" });
    section.append(element("h2", {}, zone.title));
    for (const row of zone.rows) {
      const line = element("div", { class: "row" });
      line.append(element("span", { class: "label" }, row.label));
      const cards = element("span", { class: "cards" });
      for (const face of row.cards) cards.append(cardImage(face));
      line.append(cards);
      if (row.note) line.append(element("span", { class: "note" }, row.note));
      section.append(line);
    }
    holder.append(section);
  }
}

function moveButton(move) {
  const button = element("button", { class: "move", "data-action": String(move.action), title: move.label });
  if (move.face) button.append(cardImage(move.face, move.label));
  else button.textContent = move.label;
  button.addEventListener("click", () => send(move.action));
  return button;
}

function drawMoves(moves) {
  const holder = document.getElementById("moves");
  holder.replaceChildren();
  if (moves.length && moves[0].action !== "continue") holder.append(element("h2", {}, "Your moves"));
  for (const move of moves) {
    if (move.action !== "continue") holder.append(moveButton(move));
  }
}

function drawBanner(snapshot, showMoves) {
  const banner = document.getElementById("banner");
  banner.replaceChildren();
  banner.removeAttribute("data-game-over");
  if (snapshot.game_over) {
    banner.setAttribute("data-game-over", snapshot.game_over.result);
    banner.append(element("h2", {}, `Game over: ${snapshot.game_over.result}`));
    banner.append(element("p", {}, `Winner: ${snapshot.game_over.winners.join(", ")}`));
    // A form, not a link: only a POST from this server's own pages starts a table.
    const again = element("form", { method: "post", action: `/play/${encodeURIComponent(snapshot.game)}`, class: "again" });
    again.append(element("input", { type: "hidden", name: "vs", value: snapshot.opponent }));
    again.append(element("button", { type: "submit" }, "Play again"));
    banner.append(again);
  } else if (snapshot.round_over) {
    banner.append(element("h2", {}, "End of the round"));
    const lines = element("pre");
    lines.textContent = snapshot.round_over.join("\n");
    banner.append(lines);
    if (showMoves) for (const move of snapshot.actions) banner.append(moveButton(move));
  }
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
  log.replaceChildren(...lines.slice(-60).map((line) => element("li", {}, line)));
  log.scrollTop = log.scrollHeight;
}

function draw(snapshot, showMoves) {
  const status = document.getElementById("status");
  status.textContent = snapshot.status;
  status.classList.toggle("problem", Boolean(snapshot.ended));
  drawZones(snapshot.table.zones);
  drawBanner(snapshot, showMoves);
  drawMoves(showMoves ? snapshot.actions : []);
  drawSide(snapshot);
}

function sleep(milliseconds) {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
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
  while (snapshot.thinking) {
    draw(snapshot, false);
    await sleep(Math.max(POLL, delay));
    const answer = await ask(`/api/tables/${tableId}/steps?after=${snapshot.step}`);
    if (!answer) return;
    for (const step of answer.steps.slice(0, -1)) {
      draw(step.snapshot, false);
      if (delay) await sleep(delay);
    }
    snapshot = answer.snapshot;
  }
  draw(snapshot, true);
}

function lostServer(problem) {
  sayProblem(`The server did not answer (${problem.message}); reload the page to go on.`);
}

async function send(action) {
  if (busy) return;
  busy = true;
  drawMoves([]);
  try {
    const response = await fetch(`/api/tables/${tableId}/actions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action }),
    });
    const answer = await response.json();
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

async function refresh() {
  try {
    const answer = await ask(`/api/tables/${tableId}`);
    if (answer) await follow(answer);
  } catch (problem) {
    lostServer(problem);
  }
}

refresh();
