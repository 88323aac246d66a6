// The page: one WebSocket to the server (the JSON messages of docs/protocol.md, one a
// text message), the account form, the lobby and one game at a time. Every text from
// the server or another player is set with textContent, never parsed as HTML.

import * as words from "./words.js";
import * as boards from "./board.js";

const $ = (id) => document.getElementById(id);
const say = words.say;

const page = {
  socket: null,
  server: null,
  name: null,
  games: [],
  game: null,
  selected: null,
  ticking: null,
};

function show(section) {
  for (const id of ["account", "lobby", "game"]) $(id).hidden = id !== section;
}

function status(text) {
  $("status").textContent = text;
}

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(message));
  }
}

function connect() {
  status(say("web_connecting"));
  const socket = new WebSocket(`wss://${location.host}${page.server.socket}`);
  page.socket = socket;
  socket.addEventListener("open", () => {
    send({ type: "hello", version: page.server.version, client: "hnefatafl web" });
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(message);
  });
  socket.addEventListener("close", () => {
    if (page.socket === socket) status(say("web_closed"));
  });
}

// Messages from the server.

function receive(message) {
  switch (message.type) {
    case "welcome":
      status(message.server);
      send({ type: "rules" });
      send({ type: "games" });
      break;
    case "error":
      status(message.message);
      break;
    case "logged_in":
      page.name = message.name;
      $("who").textContent = message.name;
      $("logout").hidden = false;
      status(say("net_logged_in", message.name));
      show("lobby");
      send({ type: "games" });
      break;
    case "rules_list":
      for (const rules of message.rules) {
        const option = document.createElement("option");
        option.value = rules.file || rules.hash;
        option.textContent = rules.name;
        $("new-rules").append(option);
      }
      break;
    case "game_list":
      gameList(message.games);
      break;
    case "game":
      openGame(message.state);
      break;
    case "joined":
      if (isShown(message.game)) {
        page.game.summary.players[message.side] = message.name;
        page.game.since = performance.now();
        status(say("net_joined", message.side, message.name, message.game));
        drawGame();
      }
      break;
    case "moved":
      if (isShown(message.game)) moved(message);
      break;
    case "undone":
      if (isShown(message.game)) {
        page.game.moves = page.game.moves.slice(0, message.moves);
        timeLeft(message.clocks);
        drawGame();
      }
      break;
    case "chat":
      if (isShown(message.game)) chatLine(say("net_chat", message.from, message.text));
      break;
    case "offered":
      if (isShown(message.game)) offered(message);
      break;
    case "declined":
      status(say("net_declined", say(`net_kind_${message.kind}`)));
      break;
    case "ended":
      if (isShown(message.game)) {
        page.game.summary.result = message.result;
        drawGame();
      }
      break;
    default:
      break;
  }
}

function isShown(game) {
  return page.game !== null && page.game.summary.game === game;
}

// The lobby.

function gameList(games) {
  if (page.listDone) {
    page.games = [];
    page.listDone = false;
  }
  page.games.push(...games);
  if (games.length < 100) {
    page.listDone = true;
    drawList();
  }
}

function clockWords(clock) {
  if (!clock) return say("net_untimed");
  if (clock.move_ms) return `${clock.move_ms / 86400000}d`;
  const minutes = clock.main_ms / 60000;
  if (clock.periods) return `${minutes}+${clock.periods}x${clock.period_ms / 1000}`;
  return `${minutes}+${clock.increment_ms / 1000}`;
}

function drawList() {
  const body = $("games").tBodies[0];
  body.replaceChildren();
  for (const game of page.games) {
    const row = body.insertRow();
    const players = game.players.map((player) => player ?? say("net_free"));
    for (const text of [game.game, game.rules_id, players.join(" – "), clockWords(game.clock)]) {
      row.insertCell().textContent = text;
    }
    const actions = row.insertCell();
    const free = game.players.includes(null);
    const mine = page.name !== null && game.players.includes(page.name);
    if (page.name !== null && (free || mine)) {
      actions.append(button("web_join", () => send({ type: "join", game: game.game })));
    }
    actions.append(button("web_watch", () => send({ type: "watch", game: game.game })));
  }
}

function button(key, action) {
  const made = document.createElement("button");
  made.type = "button";
  made.textContent = say(key);
  made.addEventListener("click", action);
  return made;
}

function newGame(event) {
  event.preventDefault();
  const minutes = Number($("new-minutes").value);
  const increment = Number($("new-increment").value);
  const message = { type: "new", rules: $("new-rules").value, side: Number($("new-side").value) };
  if (minutes > 0) message.clock = { main_ms: minutes * 60000, increment_ms: increment * 1000 };
  if ($("new-opponent").value) message.opponent = $("new-opponent").value;
  send(message);
}

// The game.

function openGame(state) {
  const rules = boards.readRules(state.rules_text);
  page.game = { ...state, rules, since: performance.now() };
  page.selected = null;
  status("");
  $("moves").replaceChildren();
  $("chat").replaceChildren();
  for (const move of state.moves) listMove(move);
  show("game");
  drawGame();
}

function moved(message) {
  const game = page.game;
  game.moves.push(message.move);
  game.to_move = 1 - message.side;
  timeLeft(message.clocks);
  page.selected = null;
  listMove(message.move);
  drawGame();
}

function timeLeft(clocks) {
  page.game.clocks = clocks;
  page.game.since = performance.now();
}

function listMove(move) {
  const item = document.createElement("li");
  const rules = page.game.rules;
  item.textContent = `${boards.squareName(rules, move.from)}-${boards.squareName(rules, move.to)}`;
  $("moves").append(item);
}

function chatLine(text) {
  const item = document.createElement("li");
  item.textContent = text;
  $("chat").append(item);
}

function offered(message) {
  const item = document.createElement("li");
  item.textContent = say(`net_offered_${message.kind}`, message.from);
  const answer = (accept) => () => {
    send({ type: "answer", game: message.game, kind: message.kind, accept });
    item.remove();
  };
  item.append(button("web_accept", answer(true)), button("web_decline", answer(false)));
  $("chat").append(item);
}

function playerName(side) {
  return page.game.summary.players[side] ?? String(side);
}

/** The end of a game in words, from the language files. */
export function endWords(result, rules) {
  const winner = result.winner;
  const name = (side) => (side === null || side === undefined ? "" : playerName(side));
  const loser = winner === null ? "" : name(1 - winner);
  const pieceName = (bit) => {
    const named = (rules.pieceInfo.get(bit) || {}).name || String(bit);
    const key = `piece_${named}`;
    return say(key) === key ? named : say(key);
  };
  const reason = result.reason;
  if (reason === "resigned") return say("net_win_resigned", name(winner), loser);
  if (reason === "time") return say("net_win_time", name(winner), loser);
  if (reason === "draw_agreed") return say("net_draw_agreed");
  if (reason === "aborted") return say("net_aborted");
  const cause = reason.rules;
  if (typeof cause === "string") {
    switch (cause) {
      case "NoMoves": return say("win_no_moves", name(winner), loser);
      case "Encircled": return say("win_encircled", name(winner), loser);
      case "Repetition":
        return winner === null ? say("draw_repetition_any") : say("win_repetition_any", name(winner));
      case "NoCapture": return say("draw_no_capture_any");
      case "NoWin": return say("draw_no_win");
      default: return cause;
    }
  }
  const [kind, bit] = Object.entries(cause)[0];
  switch (kind) {
    case "Escape": return say("win_escape", name(winner), pieceName(bit));
    case "CaptureLoss": return say("win_capture_loss", name(winner), loser, pieceName(bit));
    case "ExitFort": return say("win_exit_fort", name(winner), pieceName(bit));
    case "LosingSquare": return say("win_losing_square", name(winner), loser, pieceName(bit));
    default: return kind;
  }
}

function drawGame() {
  const game = page.game;
  if (!game) return;
  const rules = game.rules;
  const board = boards.position(rules, game.moves);
  const last = game.moves[game.moves.length - 1];
  boards.draw($("board-box"), rules, board, last, page.selected, clicked);
  $("title").textContent = say("web_game", game.summary.game, game.summary.rules_id);
  for (const side of [0, 1]) {
    $(`player${side}`).querySelector(".name").textContent = playerName(side);
    $(`player${side}`).classList.toggle("to-move", game.to_move === side && !game.summary.result);
  }
  drawClocks();
  const ended = game.summary.result;
  $("end").textContent = ended ? endWords(ended, rules) : "";
  let turn;
  if (ended) turn = "";
  else if (game.summary.players.includes(null)) turn = say("web_waiting");
  else if (game.your_side === game.to_move) turn = say("web_your_move");
  else turn = say("web_to_move", playerName(game.to_move));
  $("turn").textContent = turn;
  const playing = game.your_side !== null && !ended;
  $("resign").hidden = !playing;
  $("draw").hidden = !playing;
}

function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

function drawClocks() {
  const game = page.game;
  if (!game) return;
  const running = !game.summary.result && !game.summary.players.includes(null) && game.clocks;
  for (const side of [0, 1]) {
    const cell = $(`player${side}`).querySelector(".clock");
    if (!game.clocks) {
      cell.textContent = "";
      continue;
    }
    let left = game.clocks[side];
    if (running && game.to_move === side) left -= performance.now() - game.since;
    cell.textContent = clockText(left);
  }
}

function clicked(x, y) {
  const game = page.game;
  if (!game || game.summary.result || game.your_side !== game.to_move) return;
  const board = boards.position(game.rules, game.moves);
  const owner = boards.ownerAt(game.rules, board, x, y);
  if (owner === game.your_side) {
    page.selected = [x, y];
  } else if (page.selected) {
    send({ type: "move", game: game.summary.game, move: { from: page.selected, to: [x, y] } });
    page.selected = null;
  }
  drawGame();
}

// The page's controls.

function account(type) {
  const name = $("name").value.trim();
  const password = $("password").value;
  if (name && password) send({ type, name, password });
}

function wire() {
  $("login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    account("login");
  });
  $("register").addEventListener("click", () => account("register"));
  $("logout").addEventListener("click", () => {
    const socket = page.socket;
    page.socket = null;
    socket.close();
    page.name = null;
    page.game = null;
    $("who").textContent = "";
    $("logout").hidden = true;
    $("password").value = "";
    show("account");
    connect();
  });
  $("refresh").addEventListener("click", () => send({ type: "games" }));
  $("new-form").addEventListener("submit", newGame);
  $("back").addEventListener("click", () => {
    show("lobby");
    send({ type: "games" });
  });
  $("resign").addEventListener("click", () => send({ type: "resign", game: page.game.summary.game }));
  $("draw").addEventListener("click", () =>
    send({ type: "offer", game: page.game.summary.game, kind: "draw" }));
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("chat-text").value;
    if (text && page.game) send({ type: "say", game: page.game.summary.game, text });
    $("chat-text").value = "";
  });
  $("language").addEventListener("change", async () => {
    await words.load($("language").value);
    relabel();
  });
}

function relabel() {
  words.label(document);
  document.documentElement.lang = $("language").value === "swe" ? "sv" : "en";
  const opponent = $("new-opponent");
  opponent.replaceChildren();
  const anyone = document.createElement("option");
  anyone.value = "";
  anyone.textContent = say("web_anyone");
  opponent.append(anyone);
  for (const computer of page.server.computers) {
    const option = document.createElement("option");
    option.value = computer;
    option.textContent = computer;
    opponent.append(option);
  }
  drawList();
  drawGame();
}

async function start() {
  page.server = await fetch("server.json").then((answer) => answer.json());
  const language = words.preferred();
  $("language").value = language;
  await words.load(language);
  relabel();
  wire();
  page.ticking = setInterval(drawClocks, 250);
  show("account");
  connect();
}

start();
