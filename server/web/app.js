// The page: one WebSocket to the server (the JSON messages of docs/protocol.md, one a
// text message), the account form, the lobby and one game at a time. Every text from
// the server or another player is set with textContent, never parsed as HTML.

import * as words from "./words.js";
import * as boards from "./board.js";
import * as lobby from "./lobby.js";
import * as tournaments from "./tournaments.js";

const $ = (id) => document.getElementById(id);
/** The version of the protocol's position addition the page reads (docs/protocol.md). */
const POSITIONS = 1;
/** The first and the longest wait before connecting again, in milliseconds. */
const FIRST_RETRY = 500;
const LONGEST_RETRY = 8000;
const say = words.say;
const button = lobby.button;

const page = {
  socket: null,
  server: null,
  name: null,
  games: [],
  game: null,
  /** The squares chosen for the next move: a piece, then a jump chain's landings. */
  chain: null,
  flipped: false,
  notation: "algebraic",
  /** The theme whose images draw the pieces; none: discs. */
  theme: "",
  ticking: null,
  /** The account's name and password while logged in, to log in again after a drop. */
  credentials: null,
  tried: null,
  retry: FIRST_RETRY,
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
  // `ws:` on a plain port (behind a proxy that ends TLS the page is `https:` again).
  const scheme = location.protocol === "http:" ? "ws" : "wss";
  const socket = new WebSocket(`${scheme}://${location.host}${page.server.socket}`);
  page.socket = socket;
  socket.addEventListener("open", () => {
    send({
      type: "hello", version: page.server.version, client: "hnefatafl web", positions: POSITIONS,
    });
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
    if (page.socket !== socket) return;
    // Dropped (a network's hiccup, a server's restart): connect again, a little later
    // each time, log in again and take up the game on the board.
    status(say("web_closed"));
    // The board is dimmed and takes no move until the game is up to date again.
    document.body.classList.add("offline");
    setTimeout(connect, page.retry);
    page.retry = Math.min(page.retry * 2, LONGEST_RETRY);
  });
}

// Messages from the server.

/** The messages that only the lobby shows, by type, each with the lobby's function. */
const LOBBY_MESSAGES = {
  rules_list: (message) => lobby.rulesList(message.rules),
  game_list: (message) => lobby.gameList(message.games),
  archive_list: (message) => lobby.archiveList(message.games),
  challenged: lobby.challenged,
  leaderboard: lobby.leaderboard,
  account_ratings: lobby.accountRatings,
  saved_game: lobby.savedGame,
  tournament_list: tournaments.list,
  tournament: tournaments.show,
};

function receive(message) {
  const forLobby = Object.hasOwn(LOBBY_MESSAGES, message.type) ? LOBBY_MESSAGES[message.type] : null;
  if (forLobby) {
    forLobby(message);
    return;
  }
  switch (message.type) {
    case "welcome":
      status(message.server);
      page.retry = FIRST_RETRY;
      if (!page.rulesListed) send({ type: "rules" });
      page.rulesListed = true;
      send({ type: "games" });
      if (page.credentials) send({ type: "login", ...page.credentials });
      else if (!resume()) document.body.classList.remove("offline");
      break;
    case "error":
      status(message.message);
      break;
    case "logged_in":
      page.name = message.name;
      if (page.tried) page.credentials = page.tried;
      page.tried = null;
      $("who").textContent = message.name;
      $("logout").hidden = false;
      status(say("net_logged_in", message.name));
      if (!resume()) {
        document.body.classList.remove("offline");
        show("lobby");
        send({ type: "games" });
      }
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
    case "position":
      if (isShown(message.game)) positioned(message.position);
      break;
    case "undone":
      if (isShown(message.game)) {
        page.game.moves = page.game.moves.slice(0, message.moves);
        page.game.past.clear();
        page.game.replayPly = null;
        page.chain = null;
        timeLeft(message.clocks);
        listMoves();
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

/** After connecting again: takes up the game on the board, if any (its seat, or
 * watching it); answers whether there was one. */
function resume() {
  const game = page.game;
  if (!game) return false;
  const type = game.your_side === null || game.summary.result ? "watch" : "join";
  send({ type, game: game.summary.game });
  return true;
}

function isShown(game) {
  return page.game !== null && page.game.summary.game === game;
}

// The game.

function openGame(state) {
  const rules = boards.readRules(state.rules_text);
  page.game = {
    ...state, rules, since: performance.now(), position: null, past: new Map(), replayPly: null,
  };
  page.chain = null;
  status("");
  document.body.classList.remove("offline");
  $("chat").replaceChildren();
  listMoves();
  show("game");
  drawGame();
}

/** A position from the server: the current one, or a past one asked for to replay. */
function positioned(position) {
  const game = page.game;
  if (position.ply === game.moves.length) game.position = position;
  else game.past.set(position.ply, position);
  drawGame();
}

/** The ply the board shows: the current one, or the one replayed. */
function shownPly() {
  return page.game.replayPly ?? page.game.moves.length;
}

/** Shows the position after `ply` moves, asking the server for it the first time. */
function replay(ply) {
  const game = page.game;
  const last = game.moves.length;
  const to = Math.max(0, Math.min(last, ply));
  game.replayPly = to === last ? null : to;
  page.chain = null;
  if (game.replayPly !== null && !game.past.has(to)) {
    send({ type: "position", game: game.summary.game, ply: to });
  }
  drawGame();
}

function moved(message) {
  const game = page.game;
  game.moves.push(message.move);
  game.to_move = 1 - message.side;
  timeLeft(message.clocks);
  page.chain = null;
  listMove(message.move);
  drawGame();
}

function timeLeft(clocks) {
  page.game.clocks = clocks;
  page.game.since = performance.now();
}

/** A move in words, in the notation chosen: its squares, a jump chain's landings too. */
function moveWords(move) {
  const rules = page.game.rules;
  const squares = [move.from];
  let [x, y] = move.from;
  for (const direction of move.jumps || []) {
    const [dx, dy] = STEPS[direction];
    [x, y] = [x + 2 * dx, y + 2 * dy];
    squares.push([x, y]);
  }
  if (!move.jumps || move.jumps.length === 0) squares.push(move.to);
  const separator = page.notation === "numeric" ? " " : "-";
  return squares.map((square) => boards.squareWords(rules, square, page.notation)).join(separator);
}

function listMove(move) {
  const item = document.createElement("li");
  item.textContent = moveWords(move);
  $("moves").append(item);
}

function listMoves() {
  $("moves").replaceChildren();
  for (const move of page.game.moves) listMove(move);
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
  const ply = shownPly();
  const past = game.past.get(ply);
  const view = {
    board: ply === game.moves.length || !past
      ? boards.piecesAfter(rules, game.position, game.moves.slice(0, ply))
      : past.board.slice(),
    last: game.moves[ply - 1],
    chain: page.chain,
    targets: page.chain ? nextSquares(page.chain) : null,
    flipped: page.flipped,
    notation: page.notation,
    theme: page.theme,
  };
  boards.draw($("board-box"), rules, view, { click: clicked, drop: dropped });
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
  $("undo").hidden = !playing;
  $("rematch").hidden = !(ended && game.your_side !== null);
  $("download").hidden = !ended;
  $("ply").textContent = `${ply} / ${game.moves.length}`;
  const items = $("moves").children;
  for (let at = 0; at < items.length; at += 1) items[at].classList.toggle("shown", at === ply - 1);
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

// Moves: the legal moves are the server's (its `position`), the page only looks them up.

/** The moves' directions by name, as the protocol writes a jump's path. */
const STEPS = { North: [0, -1], East: [1, 0], South: [0, 1], West: [-1, 0] };

/** The legal moves of the position on the board: undefined while the position of the
 * last move has not come, null when the server sent none (too many to send). */
function legal() {
  const position = page.game.position;
  if (!position || position.ply !== page.game.moves.length) return undefined;
  return position.legal;
}

function myTurn() {
  const game = page.game;
  return game && game.replayPly === null && !document.body.classList.contains("offline") && !game.summary.result && game.your_side === game.to_move
    && !game.summary.players.includes(null);
}

/** Whether the piece on `index` may start a move now. */
function movable(index) {
  const moves = legal();
  if (!moves) {
    const piece = boards.piecesAfter(page.game.rules, page.game.position, page.game.moves)[index];
    return Boolean(piece) && boards.ownerOf(page.game.rules, piece) === page.game.your_side;
  }
  return moves.steps.some(([from]) => from === index) || moves.jumps.some((jump) => jump[0] === index);
}

function startsWith(jump, chain) {
  return chain.every((square, at) => jump[at] === square);
}

/** The squares the chosen piece (and jump chain so far) may go to next; null: any, for
 * the server to judge. */
function nextSquares(chain) {
  const moves = legal();
  if (!moves) return null;
  const next = new Set();
  if (chain.length === 1) {
    for (const [from, targets] of moves.steps) {
      if (from === chain[0]) targets.forEach((target) => next.add(target));
    }
  }
  for (const jump of moves.jumps) {
    if (jump.length > chain.length && startsWith(jump, chain)) next.add(jump[chain.length]);
  }
  return next;
}

/** Sends the move along `chain`: an ordinary move for two squares that are a step, else
 * a jump capture through each landing. */
function sendMove(chain, jump) {
  const rules = page.game.rules;
  const squares = chain.map((index) => boards.squareAt(rules, index));
  const move = { from: squares[0], to: squares[squares.length - 1] };
  if (jump) {
    move.jumps = squares.slice(1).map(([x, y], at) => {
      const [px, py] = squares[at];
      const [dx, dy] = [Math.sign(x - px), Math.sign(y - py)];
      return Object.keys(STEPS).find((name) => STEPS[name][0] === dx && STEPS[name][1] === dy);
    });
  }
  send({ type: "move", game: page.game.summary.game, move });
  page.chain = null;
}

/** The chosen piece goes one square further: a move is sent when it is whole. */
function extend(index) {
  const chain = [...page.chain, index];
  const moves = legal();
  if (!moves) {
    sendMove(chain, false);
    return;
  }
  const step = chain.length === 2
    && moves.steps.some(([from, targets]) => from === chain[0] && targets.includes(index));
  const whole = moves.jumps.some((jump) => jump.length === chain.length && startsWith(jump, chain));
  const longer = moves.jumps.some((jump) => jump.length > chain.length && startsWith(jump, chain));
  if (longer) page.chain = chain;
  else if (whole) sendMove(chain, true);
  else if (step) sendMove(chain, false);
}

function clicked(index) {
  if (!myTurn()) return;
  const chain = page.chain;
  const next = chain ? nextSquares(chain) : null;
  if (chain && (next ? next.has(index) : !movable(index) && index !== chain[0])) {
    status("");
    extend(index);
  } else if (chain && chain.length > 1) {
    // Halfway through a jump chain only its next landings may be chosen.
    status(say("web_not_legal"));
  } else if (movable(index) && !(chain && chain[0] === index)) {
    page.chain = [index];
  } else {
    if (chain && chain[0] !== index) status(say("web_not_legal"));
    page.chain = null;
  }
  drawGame();
}

function dropped(from, to) {
  if (!myTurn() || !movable(from)) return;
  page.chain = [from];
  clicked(to);
}

// The page's controls.

function account(type) {
  const name = $("name").value.trim();
  const password = $("password").value;
  if (name && password) {
    page.tried = { name, password };
    send({ type, name, password });
  }
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
    page.credentials = null;
    $("who").textContent = "";
    $("logout").hidden = true;
    $("password").value = "";
    show("account");
    connect();
  });
  $("back").addEventListener("click", () => {
    show("lobby");
    send({ type: "games" });
  });
  $("flip").addEventListener("click", () => {
    page.flipped = !page.flipped;
    drawGame();
  });
  $("theme").addEventListener("change", () => {
    page.theme = $("theme").value;
    drawGame();
  });
  $("notation").addEventListener("change", () => {
    page.notation = $("notation").value;
    if (page.game) listMoves();
    drawGame();
  });
  const current = () => page.game.summary.game;
  $("undo").addEventListener("click", () => send({ type: "offer", game: current(), kind: "undo" }));
  $("rematch").addEventListener("click", () => send({ type: "rematch", game: current() }));
  $("download").addEventListener("click", () => send({ type: "fetch", game: current() }));
  $("first").addEventListener("click", () => replay(0));
  $("previous").addEventListener("click", () => replay(shownPly() - 1));
  $("next").addEventListener("click", () => replay(shownPly() + 1));
  $("latest").addEventListener("click", () => replay(page.game.moves.length));
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
  const theme = $("theme");
  theme.replaceChildren();
  const discs = document.createElement("option");
  discs.value = "";
  discs.textContent = say("web_discs");
  theme.append(discs);
  for (const name of page.server.themes || []) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    theme.append(option);
  }
  theme.value = page.theme;
  for (const computer of page.server.computers) {
    const option = document.createElement("option");
    option.value = computer;
    option.textContent = computer;
    opponent.append(option);
  }
  lobby.drawList();
  drawGame();
}

async function start() {
  page.server = await fetch("server.json").then((answer) => answer.json());
  const language = words.preferred();
  $("language").value = language;
  await words.load(language);
  lobby.init(page, send);
  tournaments.init(page, send);
  relabel();
  wire();
  page.ticking = setInterval(drawClocks, 250);
  show("account");
  connect();
}

start();
