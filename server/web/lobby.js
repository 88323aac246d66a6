// The lobby: the games being played or waiting (seeks with their terms among them),
// challenges to this player, the form that makes a game or posts a seek, the
// leaderboard and a player's ratings, and the archive. Everything through the
// protocol's own messages (docs/protocol.md); every text from the server is set with
// textContent.

import { say } from "./words.js";

const $ = (id) => document.getElementById(id);
/** The entries of a list's page: a shorter page is the last. */
const PAGE = 100;

let page = null;
let send = null;

/** Wires the lobby to the page's state and its socket's `send`. */
export function init(state, sender) {
  page = state;
  send = sender;
  page.games = [];
  page.archive = [];
  page.rulesSets = [];
  $("refresh").addEventListener("click", () => send({ type: "games" }));
  $("new-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send(newGame());
  });
  $("new-clock").addEventListener("change", showClockFields);
  $("ratings-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({ type: "ratings", rules: $("ratings-rules").value });
  });
  $("show-archive").addEventListener("click", () => send({ type: "archive" }));
  showClockFields();
}

export function button(key, action) {
  const made = document.createElement("button");
  made.type = "button";
  made.textContent = say(key);
  made.addEventListener("click", action);
  return made;
}

function cells(row, texts) {
  for (const text of texts) row.insertCell().textContent = String(text);
}

/** A clock in the command line's words: `5+3`, `10+3x30`, `3d`. */
export function clockWords(clock) {
  if (!clock) return say("net_untimed");
  if (clock.move_ms) return `${clock.move_ms / 86400000}d`;
  const minutes = clock.main_ms / 60000;
  if (clock.periods) return `${minutes}+${clock.periods}x${clock.period_ms / 1000}`;
  return `${minutes}+${clock.increment_ms / 1000}`;
}

/** A seek's terms in words: who may take it. */
function termsWords(terms) {
  if (!terms) return "";
  const parts = [];
  if (terms.to) parts.push(say("web_for", terms.to));
  if (terms.min_rating !== undefined || terms.max_rating !== undefined) {
    parts.push(`${terms.min_rating ?? ""}–${terms.max_rating ?? ""}`);
  }
  return parts.join(", ");
}

// The rule sets.

export function rulesList(rules) {
  page.rulesSets.push(...rules);
  for (const select of [$("new-rules"), $("ratings-rules")]) {
    for (const set of rules) {
      const option = document.createElement("option");
      option.value = set.file || set.hash;
      option.textContent = set.name;
      select.append(option);
    }
  }
}

/** A rule set's id by its hash, for the rating history (which names rules by hash). */
function rulesByHash(hash) {
  const set = page.rulesSets.find((rules) => rules.hash === hash);
  return set ? set.id : hash.slice(0, 8);
}

// The games being played or waiting.

/** Takes a page of `game_list`; the list is drawn when its last page has come. */
export function gameList(games) {
  if (page.listDone !== false) page.games = [];
  page.listDone = false;
  page.games.push(...games);
  if (games.length < PAGE) {
    page.listDone = true;
    drawList();
  }
}

export function drawList() {
  const body = $("games").tBodies[0];
  body.replaceChildren();
  for (const game of page.games) {
    const row = body.insertRow();
    const players = game.players.map((player) => player ?? say("net_free"));
    cells(row, [game.game, game.rules_id, players.join(" – "), clockWords(game.clock),
      game.rated ? say("web_rated") : "", termsWords(game.seek)]);
    const actions = row.insertCell();
    const free = game.players.includes(null);
    const mine = page.name !== null && game.players.includes(page.name);
    if (page.name !== null && (free || mine)) {
      actions.append(button("web_join", () => send({ type: "join", game: game.game })));
    }
    actions.append(button("web_watch", () => send({ type: "watch", game: game.game })));
  }
}

/** Another player challenges this one: the game waits for a `join`. */
export function challenged(message) {
  const summary = message.summary;
  const item = document.createElement("li");
  const key = summary.rated ? "net_challenged_rated" : "net_challenged";
  const players = summary.players.map((player) => player ?? say("net_free")).join(" – ");
  item.textContent = say(key, message.from, summary.game, summary.rules_id, clockWords(summary.clock))
    + ` (${players}) `;
  item.append(button("web_join", () => {
    send({ type: "join", game: summary.game });
    item.remove();
  }));
  $("challenges").append(item);
}

// A new game or seek.

function number(id) {
  return Number($(id).value) || 0;
}

function showClockFields() {
  const kind = $("new-clock").value;
  for (const [id, kinds] of [
    ["clock-main", ["fischer", "byoyomi"]],
    ["clock-increment", ["fischer"]],
    ["clock-periods", ["byoyomi"]],
    ["clock-days", ["correspondence"]],
  ]) {
    $(id).hidden = !kinds.includes(kind);
  }
}

/** The clock of the form, or none for an untimed game (or a main time of 0 minutes in
 * a Fischer clock). */
function formClock() {
  const minutes = number("new-minutes");
  switch ($("new-clock").value) {
    case "fischer":
      return minutes > 0
        ? { main_ms: minutes * 60000, increment_ms: number("new-increment") * 1000 }
        : null;
    case "byoyomi":
      return {
        main_ms: minutes * 60000, increment_ms: 0,
        periods: number("new-periods"), period_ms: number("new-period") * 1000,
      };
    case "correspondence":
      return { main_ms: 0, increment_ms: 0, move_ms: number("new-days") * 86400000 };
    default:
      return null;
  }
}

/** The form's message: `new` against a computer or anyone, `seek` when it names whom
 * it is for (a player, a rating range) or leaves the side to the server. */
function newGame() {
  const rules = $("new-rules").value;
  const clock = formClock();
  const rated = $("new-rated").checked;
  const side = $("new-side").value;
  const opponent = $("new-opponent").value;
  const terms = {};
  const to = $("new-to").value.trim();
  if (to) terms.to = to;
  if ($("new-min").value !== "") terms.min_rating = number("new-min");
  if ($("new-max").value !== "") terms.max_rating = number("new-max");
  let message;
  if (opponent || (Object.keys(terms).length === 0 && side !== "")) {
    message = { type: "new", rules, side: Number(side || 0), rated };
    if (opponent) message.opponent = opponent;
  } else {
    message = { type: "seek", rules, rated, terms };
    if (side !== "") message.side = Number(side);
  }
  if (clock) message.clock = clock;
  return message;
}

// Ratings.

export function leaderboard(message) {
  $("leaderboard-title").textContent = say("net_leaderboard", message.rules_id, message.page + 1);
  const body = $("leaderboard").tBodies[0];
  body.replaceChildren();
  for (const entry of message.entries) {
    const row = body.insertRow();
    row.insertCell().textContent = String(entry.rank);
    const name = row.insertCell().appendChild(document.createElement("button"));
    name.type = "button";
    name.className = "link";
    name.textContent = entry.name;
    name.addEventListener("click", () => send({ type: "rating", account: entry.name }));
    cells(row, [entry.rating, `± ${entry.deviation}`, entry.games]);
  }
}

export function accountRatings(message) {
  $("rated-name").textContent = say("net_ratings", message.account);
  const body = $("player-ratings").tBodies[0];
  body.replaceChildren();
  for (const rating of message.ratings) {
    cells(body.insertRow(), [rating.rules_id, rating.rating, `± ${rating.deviation}`, rating.games]);
  }
  const history = $("history");
  history.replaceChildren();
  for (const row of message.history) {
    const item = document.createElement("li");
    const date = new Date(row.period_end_ms).toISOString().slice(0, 16).replace("T", " ");
    item.textContent = say("net_rating_history", date, rulesByHash(row.rules_hash), row.rating,
      row.deviation, row.games);
    history.append(item);
  }
}

// The archive.

export function archiveList(games) {
  if (page.archiveDone !== false) page.archive = [];
  page.archiveDone = false;
  page.archive.push(...games);
  if (games.length >= PAGE) return;
  page.archiveDone = true;
  const body = $("archive").tBodies[0];
  body.replaceChildren();
  for (const game of page.archive) {
    const row = body.insertRow();
    const winner = game.result ? game.result.winner : null;
    const score = winner === 0 ? "1–0" : winner === 1 ? "0–1" : "½–½";
    cells(row, [game.game, game.rules_id, game.players.map((p) => p ?? "").join(" – "), score,
      game.moves]);
    const actions = row.insertCell();
    actions.append(button("web_replay", () => send({ type: "watch", game: game.game })));
    actions.append(button("web_download", () => send({ type: "fetch", game: game.game })));
  }
}

/** A fetched game, offered as a file in the saved-game form that the program's `e`
 * loads (what its `fetch` writes). */
export function savedGame(message) {
  const blob = new Blob([message.text], { type: "text/plain" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `game${message.game}-${message.rules_file}.txt`;
  link.textContent = link.download;
  link.id = `saved-${message.game}`;
  $("downloads").replaceChildren(link);
  link.click();
}
