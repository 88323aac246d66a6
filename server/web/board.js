// The board, drawn as SVG from the rule file's `width`, `height`, `squares` and `pieces`
// and the position the server sends (its pieces, captures taken off, and the legal moves
// of the side to move). The page holds no rules engine: what may move where is the
// server's word. Input is reported as events (a square clicked, a piece dropped), by
// pointer events, so that a mouse, a pen and a finger on a phone all work.

const SVG = "http://www.w3.org/2000/svg";
const CELL = 40;
/** The room for the coordinates beside the board, in the SVG's units. */
const MARGIN = 18;
/** How far a pointer must go, in screen pixels, before a press becomes a drag. */
const DRAG_START = 6;

/** The parts of a rule file the board needs. */
export function readRules(text) {
  const lines = text.replace(/\\\n/g, " ").split("\n");
  const rules = { width: 0, height: 0, pieces: [], squares: [], pieceInfo: new Map(), squareInfo: new Map() };
  for (const raw of lines) {
    const line = raw.replace(/#.*/, "").trim();
    if (line === "") continue;
    const words = line.split(/\s+/);
    const info = (map, bit) => {
      if (!map.has(bit)) map.set(bit, {});
      return map.get(bit);
    };
    switch (words[0]) {
      case "width": rules.width = Number(words[1]); break;
      case "height": rules.height = Number(words[1]); break;
      case "pieces": rules.pieces = words.slice(1).map(Number); break;
      case "squares": rules.squares = words.slice(1).map(Number); break;
      case "piece":
        if (words[1] !== "bit" && words.length > 2) {
          const piece = info(rules.pieceInfo, Number(words[1]));
          piece[words[2]] = words.slice(3).join(" ").replace(/^"|"$/g, "");
        }
        break;
      case "square":
        if (words[1] !== "bit" && words.length > 2) {
          info(rules.squareInfo, Number(words[1]))[words[2]] = true;
        }
        break;
      default: break;
    }
  }
  return rules;
}

/** A square's number, row by row from the top left, as the server's positions count. */
export function indexOf(rules, [x, y]) {
  return y * rules.width + x;
}

/** A square's column and row from its number. */
export function squareAt(rules, index) {
  return [index % rules.width, Math.floor(index / rules.width)];
}

/**
 * The pieces after `moves`: from the server's `position` (which has the captures taken
 * off) when it is that of the moves, else the start (or the last position known) with
 * each later piece moved, its captures not yet known.
 */
export function piecesAfter(rules, position, moves) {
  const known = position && position.ply <= moves.length ? position : null;
  const board = known ? known.board.slice() : rules.pieces.slice();
  for (const move of moves.slice(known ? known.ply : 0)) {
    const from = indexOf(rules, move.from);
    const to = indexOf(rules, move.to);
    board[to] = board[from];
    board[from] = 0;
  }
  return board;
}

/** The kind of a square, for its colour: escape, hostile, plain or none (off the board). */
function squareKind(rules, value) {
  if (!value) return "none";
  for (const [bit, info] of rules.squareInfo) {
    if ((value & bit) && info.escape) return "escape";
  }
  for (const [bit, info] of rules.squareInfo) {
    if ((value & bit) && info.captures) return "hostile";
  }
  return "plain";
}

/** A square's name: its column's letter and its row counted from the bottom. */
export function squareName(rules, [x, y]) {
  return String.fromCharCode(97 + x) + String(rules.height - y);
}

/**
 * A square in a notation: `algebraic` (`d7`, columns from a, rows from the bottom) or
 * `numeric` (`3 0`, columns and rows from 0 from the top left, as the move message and
 * the terminal's numeric notation count them).
 */
export function squareWords(rules, square, notation) {
  return notation === "numeric" ? `${square[0]} ${square[1]}` : squareName(rules, square);
}

/** The owner (0 or 1) of a piece type, by the rule file. */
export function ownerOf(rules, piece) {
  const info = rules.pieceInfo.get(piece) || {};
  return info.owner === "1" ? 1 : 0;
}

function element(name, attributes) {
  const made = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, value);
  return made;
}

/**
 * A piece at a square's top left corner: a disc, or with a theme the theme's image of
 * the piece's type (of the type it is drawn like, `ui_bit`, when the rule file says),
 * which the server serves as PNG.
 */
function pieceElement(rules, piece, theme, left, top) {
  const info = rules.pieceInfo.get(piece) || {};
  const king = info.name === "king";
  const classes = `piece side${ownerOf(rules, piece)}${king ? " king" : ""}`;
  const name = info.name || String(piece);
  if (theme) {
    const bit = String(Number(info.ui_bit) || piece).padStart(3, "0");
    return element("image", {
      href: `theme/${theme}/p${bit}.png`, x: left, y: top, width: CELL, height: CELL,
      class: classes, "data-piece": name,
    });
  }
  return element("circle", {
    cx: left + CELL / 2, cy: top + CELL / 2, r: king ? CELL * 0.4 : CELL * 0.32,
    class: classes, "data-piece": name,
  });
}

/** The coordinates' labels around the board, in the notation chosen. */
function labels(svg, rules, view, place) {
  for (let x = 0; x < rules.width; x += 1) {
    const [left] = place(x, 0);
    const text = view.notation === "numeric" ? String(x) : String.fromCharCode(97 + x);
    const label = element("text", {
      x: left + CELL / 2, y: MARGIN + rules.height * CELL + MARGIN * 0.75, class: "coordinate",
    });
    label.textContent = text;
    svg.append(label);
  }
  for (let y = 0; y < rules.height; y += 1) {
    const [, top] = place(0, y);
    const text = view.notation === "numeric" ? String(y) : String(rules.height - y);
    const label = element("text", { x: MARGIN / 2, y: top + CELL / 2 + 4, class: "coordinate" });
    label.textContent = text;
    svg.append(label);
  }
}

/**
 * Draws the board into `box`. `view` holds `board` (the piece bit on each square),
 * `last` (the last move), `chain` (the squares chosen so far: a piece, then the landings
 * of a jump chain), `targets` (a Set of the squares it may go to next), `flipped`,
 * `notation` and `theme` (a theme's name, or none for discs). `input.click(index)` is told of a click on a square, `input.drop(from, to)`
 * of a piece dragged from one square onto another.
 */
export function draw(box, rules, view, input) {
  const width = rules.width * CELL + MARGIN;
  const height = rules.height * CELL + MARGIN;
  const svg = element("svg", {
    viewBox: `0 0 ${width} ${height + MARGIN}`,
    class: view.flipped ? "board flipped" : "board",
    role: "grid",
  });
  const place = (x, y) => {
    const [shownX, shownY] = view.flipped ? [rules.width - 1 - x, rules.height - 1 - y] : [x, y];
    return [MARGIN + shownX * CELL, MARGIN + shownY * CELL];
  };
  const chain = view.chain || [];
  const pieces = new Map();
  for (let y = 0; y < rules.height; y += 1) {
    for (let x = 0; x < rules.width; x += 1) {
      const index = y * rules.width + x;
      const kind = squareKind(rules, rules.squares[index]);
      if (kind === "none") continue;
      const classes = ["square", kind];
      const last = view.last;
      if (last && ((last.from[0] === x && last.from[1] === y) || (last.to[0] === x && last.to[1] === y))) {
        classes.push("last");
      }
      if (chain.includes(index)) classes.push("selected");
      if (view.targets && view.targets.has(index)) classes.push("target");
      const [left, top] = place(x, y);
      svg.append(element("rect", {
        x: left, y: top, width: CELL, height: CELL,
        class: classes.join(" "),
        "data-square": squareName(rules, [x, y]),
        "data-index": index,
      }));
      const piece = view.board[index];
      if (piece) {
        const drawn = pieceElement(rules, piece, view.theme, left, top);
        drawn.setAttribute("data-on", index);
        pieces.set(index, drawn);
        svg.append(drawn);
      }
    }
  }
  labels(svg, rules, view, place);
  shown = { svg, rules, view, pieces, input };
  if (!box.dataset.listening) {
    box.dataset.listening = "yes";
    listen(box);
  }
  box.replaceChildren(svg);
}

/** What the board shows now: a press begun before a redraw (a message came in) ends on
 * the new drawing. */
let shown = null;

/** The square under a pointer, or null off the board. */
function squareUnder(event) {
  const { svg, rules, view } = shown;
  const matrix = svg.getScreenCTM();
  if (!matrix) return null;
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  let x = Math.floor((point.x - MARGIN) / CELL);
  let y = Math.floor((point.y - MARGIN) / CELL);
  if (view.flipped) [x, y] = [rules.width - 1 - x, rules.height - 1 - y];
  if (x < 0 || y < 0 || x >= rules.width || y >= rules.height) return null;
  const index = y * rules.width + x;
  return rules.squares[index] ? index : null;
}

/**
 * Listens to the board's box, which outlives each drawing: a press and release on one
 * square is a click; a press, a move and a release elsewhere a drop. The dragged piece
 * follows the pointer.
 */
function listen(box) {
  let press = null;
  box.addEventListener("pointerdown", (event) => {
    const from = shown && event.isPrimary ? squareUnder(event) : null;
    if (from === null) return;
    press = { from, x: event.clientX, y: event.clientY, dragging: false, id: event.pointerId };
    box.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  box.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const piece = shown.pieces.get(press.from);
    if (!piece) return;
    if (!press.dragging && Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_START) return;
    press.dragging = true;
    const matrix = shown.svg.getScreenCTM();
    if (!matrix) return;
    const scale = matrix.inverse();
    const now = new DOMPoint(event.clientX, event.clientY).matrixTransform(scale);
    const then = new DOMPoint(press.x, press.y).matrixTransform(scale);
    piece.setAttribute("transform", `translate(${now.x - then.x} ${now.y - then.y})`);
    piece.classList.add("dragged");
  });
  const release = (event) => {
    if (!press || event.pointerId !== press.id) return;
    const { from, dragging } = press;
    press = null;
    const to = event.type === "pointerup" ? squareUnder(event) : null;
    const piece = shown.pieces.get(from);
    if (piece) piece.removeAttribute("transform");
    if (dragging && to !== null && to !== from) shown.input.drop(from, to);
    else if (to === from) shown.input.click(from);
  };
  box.addEventListener("pointerup", release);
  box.addEventListener("pointercancel", release);
}
