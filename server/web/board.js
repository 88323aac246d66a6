// The board, drawn as SVG from the rule file's `width`, `height`, `squares` and `pieces`
// and the moves as the server sends them. The page holds no rules engine: a move's
// captures are not worked out here (the server's position is the next step, issue 42).

const SVG = "http://www.w3.org/2000/svg";
const CELL = 40;

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

/** The position after `moves`: each piece moved from its square to its target. */
export function position(rules, moves) {
  const board = rules.pieces.slice();
  for (const move of moves) {
    const [fx, fy] = move.from;
    const [tx, ty] = move.to;
    board[ty * rules.width + tx] = board[fy * rules.width + fx];
    board[fy * rules.width + fx] = 0;
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

function element(name, attributes) {
  const made = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, value);
  return made;
}

/**
 * Draws the board into `box`: `board` the pieces, `last` the last move, `selected` the
 * chosen square; `click(x, y)` is told of each click on a square.
 */
export function draw(box, rules, board, last, selected, click) {
  const svg = element("svg", {
    viewBox: `0 0 ${rules.width * CELL} ${rules.height * CELL}`,
    class: "board",
    role: "grid",
  });
  for (let y = 0; y < rules.height; y += 1) {
    for (let x = 0; x < rules.width; x += 1) {
      const index = y * rules.width + x;
      const kind = squareKind(rules, rules.squares[index]);
      if (kind === "none") continue;
      const classes = ["square", kind];
      if (last && ((last.from[0] === x && last.from[1] === y) || (last.to[0] === x && last.to[1] === y))) {
        classes.push("last");
      }
      if (selected && selected[0] === x && selected[1] === y) classes.push("selected");
      const square = element("rect", {
        x: x * CELL, y: y * CELL, width: CELL, height: CELL,
        class: classes.join(" "),
        "data-square": squareName(rules, [x, y]),
      });
      square.addEventListener("click", () => click(x, y));
      svg.append(square);
      const piece = board[index];
      if (piece) {
        const info = rules.pieceInfo.get(piece) || {};
        const owner = info.owner === "1" ? 1 : 0;
        const king = info.name === "king";
        const disc = element("circle", {
          cx: x * CELL + CELL / 2, cy: y * CELL + CELL / 2, r: king ? CELL * 0.4 : CELL * 0.32,
          class: `piece side${owner}${king ? " king" : ""}`,
          "data-piece": info.name || String(piece),
        });
        svg.append(disc);
      }
    }
  }
  box.replaceChildren(svg);
}

/** The owner (0 or 1) of the piece on a square, or null for an empty one. */
export function ownerAt(rules, board, x, y) {
  const piece = board[y * rules.width + x];
  if (!piece) return null;
  const info = rules.pieceInfo.get(piece) || {};
  return info.owner === "1" ? 1 : 0;
}
