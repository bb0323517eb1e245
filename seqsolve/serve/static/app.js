// seqsolve serve: the page. Everything it knows lives in its address (location.hash,
// JSON): the game of "play" (its record: variant, seats, seed, moves), the record text,
// step and annotation of "review", the position and the moves tried of "analyze". Every answer
// comes from the server's JSON API; nothing is kept there.
"use strict";

const $ = (id) => document.getElementById(id);
let page = {};        // what the address holds
let view = null;      // the server's last answer
let selected = null;  // the card clicked in the hand
let annotation = null; // the annotation of the record under review (kept in the address)

function readAddress() {
  try {
    const text = decodeURIComponent(location.hash.slice(1));
    page = text ? JSON.parse(text) : {};
  } catch (e) {
    page = {};
  }
  if (typeof page !== "object" || page === null) page = {};
}

function writeAddress() {
  const hash = "#" + encodeURIComponent(JSON.stringify(page));
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

function say(text, error) {
  const m = $("message");
  m.textContent = text || "";
  m.className = error ? "error" : "";
}

async function ask(action, body) {
  document.body.dataset.busy = "1";
  $("busy").hidden = false;
  try {
    const response = await fetch("/api/" + action, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    let data;
    try {
      data = await response.json();
    } catch (e) {
      data = { error: "the server answered " + response.status + " without JSON" };
    }
    if (!response.ok || data.error) {
      say(data.error || "the server answered " + response.status, true);
      return null;
    }
    say("");
    return data;
  } catch (e) {
    say("the server cannot be reached: " + e.message, true);
    return null;
  } finally {
    document.body.dataset.busy = "0";
    document.body.dataset.answers = String(Number(document.body.dataset.answers) + 1);
    $("busy").hidden = true;
  }
}

function showMode(mode) {
  for (const m of ["play", "review", "analyze"]) {
    $(m + "-setup").hidden = m !== mode;
    $(m + "-controls").hidden = m !== mode;
  }
  document.body.dataset.mode = mode;
}

// ------------------------------------------------------------------ drawing

function drawPosition(data) {
  view = data;
  selected = null;
  $("table").hidden = false;
  const board = $("board");
  if (data.picture) {
    board.innerHTML = data.picture; // SVG written by seqsolve (ElementTree: every label escaped)
    $("textview").hidden = true;
  } else {
    board.textContent = data.no_picture ? "(" + data.no_picture + ": the text view below)" : "";
    $("textview").textContent = data.text;
    $("textview").hidden = false;
  }
  const hand = $("hand");
  hand.textContent = "";
  const playable = new Set(data.legal.map((m) => m.card).filter((c) => c));
  // the hand, then any card played from elsewhere (Stacks' "^B3": the top of the own discard pile)
  const cards = data.hand.concat([...playable].filter((c) => !data.hand.includes(c)).sort());
  for (const card of cards) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "card";
    b.textContent = card;
    b.dataset.card = card;
    b.disabled = !playable.has(card);
    b.addEventListener("click", () => selectCard(card, b));
    hand.appendChild(b);
  }
  const legal = $("legal");
  legal.textContent = "";
  for (const m of data.legal) legal.appendChild(moveButton(m.move));
  $("legal-box").hidden = data.legal.length === 0;
  $("choices").textContent = "";
  const plain = $("plain-moves"); // a move with no card and nowhere to land (Stacks' pass, end)
  plain.textContent = "";
  for (const m of data.legal.filter((x) => !x.card && !x.cell)) plain.appendChild(moveButton(m.move));
  const table = $("analysis");
  table.textContent = "";
  const rows = data.analysis ? data.analysis.moves : [];
  for (const r of rows) {
    const tr = table.insertRow();
    tr.className = "analysis-row";
    tr.insertCell().textContent = r.move;
    tr.insertCell().textContent = r.win === null ? "?" : (100 * r.win).toFixed(0) + "%";
    tr.insertCell().textContent = r.visits + " visits";
  }
}

function moveButton(move) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "move";
  b.textContent = move;
  b.dataset.move = move;
  b.addEventListener("click", () => tryMove(move));
  return b;
}

// The places of the picture a move may land on, and the name each goes by in the
// server's "cell" of a move: Sequence's cells by data-cell; Sequence Stacks' piles
// (pile:K), a colour's start slots (slot:b), discard piles (discard:S), a seat's chips
// of a colour (chip:Sr) and the special pile, by their class and data- attributes.
const PLACES = "[data-cell], .pile, .pile-slot, .discard, .chip, .special-pile";

function placeName(el) {
  const d = el.dataset;
  const c = el.classList;
  if (d.cell) return d.cell;
  if (c.contains("pile")) return "pile:" + d.index;
  if (c.contains("pile-slot")) return "slot:" + d.colour;
  if (c.contains("discard")) return "discard:" + d.seat;
  if (c.contains("chip")) return "chip:" + d.seat + d.colour;
  if (c.contains("special-pile")) return "special";
  return null;
}

// what is lit up as a target: a Sequence cell's card (not the chip on it), a Stacks place
const TARGETS = ["card[data-cell]", "pile", "pile-slot", "discard", "chip[data-seat]", "special-pile"]
  .map((x) => "#board svg ." + x)
  .join(", ");

function placesNamed(name) {
  return [...document.querySelectorAll(TARGETS)].filter((el) => placeName(el) === name);
}

function selectCard(card, button) {
  selected = selected === card ? null : card;
  for (const b of $("hand").children) b.classList.toggle("selected", b.dataset.card === selected);
  for (const r of document.querySelectorAll("#board svg .target, #board svg .picked")) {
    r.classList.remove("target", "picked");
  }
  $("choices").textContent = "";
  if (!selected) return;
  // the card on the picture too, where the picture draws the hand (Sequence Stacks)
  const held = document.querySelector(
    `#board svg .card[data-card="${selected}"][data-seat="${view.to_move}"]:not([data-cell])`,
  );
  if (held) held.classList.add("picked");
  const moves = view.legal.filter((m) => m.card === selected);
  for (const m of moves) {
    if (m.cell) for (const r of placesNamed(m.cell)) r.classList.add("target");
  }
  const off = moves.filter((m) => !m.cell); // an exchange: no cell to click
  for (const m of off) $("choices").appendChild(moveButton(m.move));
}

function clickBoard(event) {
  if (!view) return;
  const held = event.target.closest(".card[data-card]:not([data-cell])"); // a card of a Stacks hand
  if (held && Number(held.dataset.seat) === view.to_move) {
    const button = [...$("hand").children].find((b) => b.dataset.card === held.dataset.card);
    if (button && !button.disabled) selectCard(held.dataset.card, button);
    return;
  }
  const cell = event.target.closest(PLACES);
  if (!cell) return;
  const name = placeName(cell);
  if (!name) return;
  const here = view.legal.filter((m) => m.cell === name && (!selected || m.card === selected));
  $("choices").textContent = "";
  if (here.length === 1) {
    tryMove(here[0].move);
  } else if (here.length > 1) {
    for (const m of here) $("choices").appendChild(moveButton(m.move));
    say("choose one: " + here.map((m) => m.move).join(", "));
  } else if (view.legal.length) {
    say(selected ? `${selected} cannot be played on ${name}` : `no move lands on ${name}: click a card first`, true);
  }
}

function tryMove(move) {
  const mode = document.body.dataset.mode;
  if (mode === "play") playMove(move);
  else if (mode === "analyze") {
    page.moves = (page.moves || []).concat([move]);
    analyzePosition();
  }
}

// ------------------------------------------------------------------ play

function drawGame(data) {
  page = { mode: "play", game: data.game };
  writeAddress();
  drawPosition(data);
  $("status").textContent = data.over
    ? `Game over: ${data.result} after ${data.turns} turns.`
    : `Your turn: seat ${data.seat}${data.side && data.side !== "seat " + data.seat ? " (" + data.side + ")" : ""}, turn ${data.turns + 1}.`;
  $("status").dataset.over = data.over ? "1" : "0";
  $("last").textContent = data.bots_played.length ? "The bots played: " + data.bots_played.join(" ") : "";
  const blob = new Blob([data.record], { type: "application/json" });
  const link = $("download");
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(blob);
  link.download = `seqsolve-${data.game.seed}.jsonl`;
  $("note").textContent = "";
  $("moves").textContent = "";
}

async function newGame() {
  const body = { variant: $("new-variant").value.trim() || "classic" };
  const number = (id) => ($(id).value.trim() === "" ? null : Number($(id).value));
  if (number("new-players") !== null) body.players = number("new-players");
  if (number("new-teams") !== null) body.teams = number("new-teams");
  if (number("new-seat") !== null) body.seat = number("new-seat");
  if (number("new-seed") !== null) body.seed = number("new-seed");
  if ($("new-bot").value.trim()) body.bot = $("new-bot").value.trim();
  const data = await ask("new", body);
  if (data) drawGame(data);
}

async function playMove(move) {
  const data = await ask("play", { game: page.game, move: move });
  if (data) drawGame(data);
}

async function resumeGame() {
  const data = await ask("play", { game: page.game });
  if (data) drawGame(data);
}

async function undo() {
  const data = await ask("undo", { game: page.game });
  if (data) drawGame(data);
}

async function hint() {
  const data = await ask("hint", { game: page.game, iterations: Number($("hint-iterations").value) || 2000 });
  if (data) {
    drawGame(data);
    $("note").textContent = "Hint: " + data.analysis.moves.map((m) => m.move).join(", ");
  }
}

async function save() {
  const data = await ask("save", { game: page.game, name: $("save-name").value.trim() || "game.jsonl" });
  if (data) say("saved " + data.path);
}

function reviewThisGame() {
  if (!view || !view.record) return;
  page = { mode: "review", text: view.record, game: 0, ply: 0 };
  annotation = null;
  showMode("review");
  $("review-text").value = view.record;
  reviewAt(0);
}

// ------------------------------------------------------------------ review

function marksAt(ply) {
  if (!annotation) return [];
  const d = annotation.decisions.find((x) => x.ply === ply + 1 && x.mark);
  return d ? [{ move: d.best, label: "better" }, { move: d.played, label: d.mark }] : [];
}

async function reviewAt(ply) {
  const body = { text: page.text, ply: ply, marks: marksAt(ply) };
  if (page.game !== undefined && page.game !== null) body.game = page.game;
  const data = await ask("review", body);
  if (!data) return;
  page.ply = data.ply;
  page.game = data.game;
  writeAddress();
  drawPosition(data);
  $("status").textContent = `Game ${data.game}, ${data.variant}: ${data.result}.`;
  $("ply").textContent = `${data.ply} / ${data.plies}`;
  $("last").textContent = data.ply ? "Last move: " + data.moves[data.ply - 1].move : "The start.";
  const list = $("moves");
  list.textContent = "";
  for (const m of data.moves) {
    const li = document.createElement("li");
    li.textContent = `seat ${m.seat}: ${m.move}`;
    li.dataset.ply = String(m.ply);
    const d = annotation && annotation.decisions.find((x) => x.ply === m.ply);
    if (d && d.mark) {
      li.classList.add(d.mark);
      li.textContent += ` (${d.mark}; better ${d.best})`;
    }
    if (m.ply === data.ply + 1) li.classList.add("current"); // the move about to be played
    li.addEventListener("click", () => reviewAt(m.ply - 1)); // the position it was played in
    list.appendChild(li);
  }
  const d = annotation && annotation.decisions.find((x) => x.ply === data.ply + 1);
  $("note").textContent = d
    ? `Next, seat ${d.seat} played ${d.played}` +
      (d.mark ? `: a ${d.mark}; better ${d.best} (win ${pct(d.win_best)} against ${pct(d.win_played)})` : ": fine by the analysis")
    : "";
  $("note").dataset.mark = d && d.mark ? d.mark : "";
}

function pct(x) {
  return x === null || x === undefined ? "?" : (100 * x).toFixed(0) + "%";
}

async function openRecord() {
  page = { mode: "review", text: $("review-text").value, ply: 0 };
  const g = $("review-game").value.trim();
  if (g !== "") page.game = Number(g);
  annotation = null;
  await reviewAt(0);
}

// what the page keeps of an annotation: each decision's marks and win chances, rounded
function kept(data) {
  const round = (x) => (x === null || x === undefined ? null : Math.round(1000 * x) / 1000);
  const decisions = data.decisions.map((d) => ({
    ply: d.ply,
    seat: d.seat,
    played: d.played,
    best: d.best,
    win_played: round(d.win_played),
    win_best: round(d.win_best),
    mark: d.mark,
  }));
  return { decisions: decisions };
}

async function annotate() {
  const body = { text: page.text, game: page.game, iterations: Number($("annotate-iterations").value) || 300 };
  const data = await ask("annotate", body);
  if (!data) return;
  annotation = kept(data);
  page.annotation = annotation; // a reload keeps it: written with the step by reviewAt
  const marked = data.decisions.filter((d) => d.mark).length;
  await reviewAt(page.ply || 0);
  say(`annotated: ${data.decisions.length} decisions, ${marked} marked`);
}

// ------------------------------------------------------------------ analysis

async function analyzePosition() {
  const body = { position: page.position, moves: page.moves || [], iterations: page.iterations || 2000 };
  const data = await ask("analyze", body);
  if (!data) {
    if (page.moves && page.moves.length && document.body.dataset.mode === "analyze" && view) {
      page.moves = view.moves; // the move tried was refused: back to the last good list
    }
    return;
  }
  writeAddress();
  drawPosition(data);
  $("status").textContent = data.over ? "The game is over." : `Seat ${data.to_move} (${data.side}) to move.`;
  $("tried").textContent = data.moves.length ? "tried: " + data.moves.join(" ") : "";
  $("note").textContent = data.no_analysis ? "No analysis: " + data.no_analysis : "";
  $("last").textContent = data.analysis ? `${data.analysis.search}, ${data.analysis.iterations} iterations` : "";
  $("moves").textContent = "";
}

function openPosition() {
  page = {
    mode: "analyze",
    position: $("analyze-text").value,
    moves: [],
    iterations: Number($("analyze-iterations").value) || 2000,
  };
  analyzePosition();
}

function takeBack() {
  if (!page.moves || !page.moves.length) return;
  page.moves = page.moves.slice(0, -1);
  analyzePosition();
}

// ------------------------------------------------------------------ start

function readFileInto(input, textarea) {
  input.addEventListener("change", () => {
    const file = input.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      textarea.value = reader.result;
    };
    reader.readAsText(file);
  });
}

function start() {
  readAddress();
  for (const b of document.querySelectorAll("nav button")) {
    b.addEventListener("click", () => {
      page = { mode: b.dataset.mode };
      view = null;
      writeAddress();
      $("table").hidden = true;
      say("");
      showMode(b.dataset.mode);
    });
  }
  $("board").addEventListener("click", clickBoard);
  $("new-game").addEventListener("click", newGame);
  $("hint").addEventListener("click", hint);
  $("undo").addEventListener("click", undo);
  $("save").addEventListener("click", save);
  $("to-review").addEventListener("click", reviewThisGame);
  $("review-open").addEventListener("click", openRecord);
  $("annotate").addEventListener("click", annotate);
  $("first").addEventListener("click", () => reviewAt(0));
  $("prev").addEventListener("click", () => reviewAt(Math.max(0, (page.ply || 0) - 1)));
  $("next").addEventListener("click", () => reviewAt(Math.min(view ? view.plies : 0, (page.ply || 0) + 1)));
  $("last-ply").addEventListener("click", () => reviewAt(view ? view.plies : 0));
  $("analyze-open").addEventListener("click", openPosition);
  $("takeback").addEventListener("click", takeBack);
  readFileInto($("review-file"), $("review-text"));
  readFileInto($("analyze-file"), $("analyze-text"));
  const mode = page.mode || "play";
  showMode(mode);
  if (mode === "play" && page.game) resumeGame();
  else if (mode === "review" && page.text) {
    $("review-text").value = page.text;
    const a = page.annotation;
    annotation = a && typeof a === "object" && Array.isArray(a.decisions) ? a : null;
    reviewAt(page.ply || 0);
  } else if (mode === "analyze" && page.position) {
    $("analyze-text").value = page.position;
    analyzePosition();
  }
  document.body.dataset.ready = "1";
}

start();
