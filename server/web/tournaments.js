// The server's tournaments in the lobby: the list, one tournament's rounds, games and
// standings, and the player's own steps (enter, withdraw, start, join a game of theirs).
// Everything through the protocol's own messages (docs/protocol.md, "Tournaments"), the
// words from data/lang as the terminal program says them; every text is set with
// textContent.

import { say } from "./words.js";
import { button, clockWords } from "./lobby.js";

const $ = (id) => document.getElementById(id);

let page = null;
let send = null;

/** Wires the tournaments' part of the lobby to the page's state and its socket. */
export function init(state, sender) {
  page = state;
  send = sender;
  $("show-tournaments").addEventListener("click", () => send({ type: "tournaments" }));
}

/** A game point count sent doubled, in halves: `1½`. */
function halves(doubled) {
  const whole = Math.floor(doubled / 2);
  return doubled % 2 === 0 ? String(whole) : `${whole === 0 ? "" : whole}½`;
}

function statusWords(summary) {
  switch (summary.status) {
    case "registration": return say("web_tournament_open");
    case "running": return say("net_tournament_running", summary.round, summary.rounds);
    case "finished": return say("net_tournament_finished");
    default: return say("net_tournament_cancelled");
  }
}

/** A tournament's line, as the terminal program's `tournament` lists it. */
function line(summary) {
  const format = summary.format === "swiss" ? say("net_swiss") : say("net_round_robin");
  return say("net_tournament_line", summary.tournament, summary.name, format, summary.rules_id,
    clockWords(summary.clock), summary.players, statusWords(summary));
}

function item(text) {
  const made = document.createElement("li");
  made.textContent = text;
  return made;
}

/** `tournament_list`: one line each, with what this player may do. */
export function list(message) {
  const shown = $("tournaments");
  shown.replaceChildren();
  if (message.tournaments.length === 0) shown.append(item(say("net_no_tournaments")));
  for (const summary of message.tournaments) {
    const entry = item(`${line(summary)} `);
    const number = summary.tournament;
    entry.append(button("web_show", () => send({ type: "tournament", tournament: number })));
    if (page.name !== null && summary.status === "registration") {
      entry.append(button("web_enter", () => send({ type: "enter_tournament", tournament: number })));
    }
    shown.append(entry);
  }
}

/** `tournament`: the whole of one, asked for or pushed to a player of it. */
export function show(message) {
  const view = message.tournament;
  const summary = view.summary;
  const number = summary.tournament;
  $("tournament-title").textContent = line(summary);
  const steps = $("tournament-steps");
  steps.replaceChildren();
  const open = summary.status === "registration" || summary.status === "running";
  if (page.name !== null && open) {
    if (view.players.includes(page.name)) {
      steps.append(button("web_withdraw", () =>
        send({ type: "withdraw_tournament", tournament: number })));
    } else if (summary.status === "registration") {
      steps.append(button("web_enter", () => send({ type: "enter_tournament", tournament: number })));
    }
    if (summary.status === "registration" && summary.creator === page.name) {
      steps.append(button("web_start", () => send({ type: "start_tournament", tournament: number })));
    }
  }
  const rounds = $("tournament-rounds");
  rounds.replaceChildren();
  if (view.rounds.length === 0 && view.players.length > 0) {
    rounds.append(item(say("net_tournament_players", view.players.join(", "))));
  }
  for (const round of view.rounds) {
    rounds.append(item(say("net_tournament_round", round.round)));
    for (const paired of round.matches) rounds.append(match(paired));
    if (round.bye) rounds.append(item(say("net_tournament_bye", round.bye).trim()));
  }
  standings(view);
}

/** A match's line with its games: the player's own game under way is joined, any
 * other watched. */
function match(paired) {
  const games = paired.games.map((game) => game ?? "-").join(", ");
  const entry = item(`${say("net_tournament_match", paired.players[0], paired.players[1],
    halves(paired.points_x2[0]), halves(paired.points_x2[1]), games).trim()} `);
  const mine = page.name !== null && paired.players.includes(page.name);
  const last = paired.games[paired.games.length - 1];
  if (!paired.finished && last !== null && last !== undefined) {
    const [key, type] = mine ? ["web_join", "join"] : ["web_watch", "watch"];
    entry.append(button(key, () => send({ type, game: last })));
  }
  return entry;
}

function standings(view) {
  $("tournament-standings-title").textContent =
    view.rounds.length === 0 ? "" : say("net_tournament_standings");
  const body = $("tournament-standings").tBodies[0];
  body.replaceChildren();
  if (view.rounds.length === 0) return;
  for (const row of view.standings) {
    const withdrawn = row.withdrawn ? say("net_tournament_withdrawn").trim() : "";
    const cells = [`${row.rank}.`, row.name, row.match_points, halves(row.game_points_x2),
      halves(row.sonneborn_berger_x2), withdrawn];
    const made = body.insertRow();
    for (const text of cells) made.insertCell().textContent = String(text);
  }
}
