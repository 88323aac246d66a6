// The page's words: the messages of data/lang (served at /lang/<language>) and the
// page's own labels (words/<language>), both in the language files' form: a key, a tab,
// the message; `#` starts a comment; {0}, {1} … stand for values.

/** Reads a language file's text into a Map of key to message. */
export function parse(text) {
  const words = new Map();
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || !line.includes("\t")) continue;
    const tab = line.indexOf("\t");
    let message = line.slice(tab + 1).trim();
    if (message.length >= 2 && message.startsWith('"') && message.endsWith('"')) {
      message = message.slice(1, -1).replaceAll("\\n", "\n").replaceAll('\\"', '"');
    }
    words.set(line.slice(0, tab), message);
  }
  return words;
}

/** The languages offered, by the file names of data/lang. */
export const LANGUAGES = ["eng", "swe"];

/** The language the browser prefers, of those offered. */
export function preferred() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    if (tag.toLowerCase().startsWith("sv")) return "swe";
    if (tag.toLowerCase().startsWith("en")) return "eng";
  }
  return "eng";
}

let catalogue = new Map();

/** Loads a language: the shared messages and the page's labels. */
export async function load(language) {
  const [shared, own] = await Promise.all([
    fetch(`lang/${language}`).then((answer) => answer.text()),
    fetch(`words/${language}`).then((answer) => answer.text()),
  ]);
  catalogue = new Map([...parse(shared), ...parse(own)]);
}

/** A message with its values put in; an unknown key is shown as itself. */
export function say(key, ...values) {
  const message = catalogue.get(key) ?? key;
  return message.replace(/\{(\d+)\}/g, (whole, index) =>
    index < values.length ? String(values[index]) : whole);
}

/** Puts the labels in every element with a data-word attribute. */
export function label(root) {
  for (const element of root.querySelectorAll("[data-word]")) {
    element.textContent = say(element.dataset.word);
  }
}
