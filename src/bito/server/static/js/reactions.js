// The chat's quick reactions drawn as small pictures shipped with the app: an emoji font may be
// missing (a box where the picture should be), so the page never relies on one. Each reaction
// keeps its emoji as the value the server stores and sends; only the drawing is ours.
const SVG = "http://www.w3.org/2000/svg";

function el(name, attrs) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

const FACE = { fill: "#ffcc33", stroke: "#b07d00", "stroke-width": 1.2 };
const INK = { fill: "none", stroke: "#5a3b00", "stroke-width": 1.6, "stroke-linecap": "round" };

// Each drawing on a 24×24 grid, as a list of [element, attributes].
const DRAWINGS = {
  "👍": [["circle", { cx: 12, cy: 12, r: 11, fill: "#2e7d32" }],
         ["path", { d: "M7 13l3.5 3.5L17.5 8", fill: "none", stroke: "#fff", "stroke-width": 2.6,
                    "stroke-linecap": "round", "stroke-linejoin": "round" }]],
  "👎": [["circle", { cx: 12, cy: 12, r: 11, fill: "#c62828" }],
         ["path", { d: "M8 8l8 8M16 8l-8 8", fill: "none", stroke: "#fff", "stroke-width": 2.6,
                    "stroke-linecap": "round" }]],
  "😂": [["circle", { cx: 12, cy: 12, r: 10.5, ...FACE }],
         ["path", { d: "M7 9.5q1.5-2 3 0M14 9.5q1.5-2 3 0", ...INK }],
         ["path", { d: "M7 13.5h10q-1 5-5 5t-5-5z", fill: "#5a3b00" }],
         ["path", { d: "M4.5 11q-1.5 2 0 3.5q1.5-1.5 0-3.5zM19.5 11q-1.5 2 0 3.5q1.5-1.5 0-3.5z",
                    fill: "#42a5f5" }]],
  "😮": [["circle", { cx: 12, cy: 12, r: 10.5, ...FACE }],
         ["circle", { cx: 8.5, cy: 9.5, r: 1.3, fill: "#5a3b00" }],
         ["circle", { cx: 15.5, cy: 9.5, r: 1.3, fill: "#5a3b00" }],
         ["ellipse", { cx: 12, cy: 16, rx: 2.4, ry: 3, fill: "#5a3b00" }]],
  "😢": [["circle", { cx: 12, cy: 12, r: 10.5, ...FACE }],
         ["circle", { cx: 8.5, cy: 10, r: 1.3, fill: "#5a3b00" }],
         ["circle", { cx: 15.5, cy: 10, r: 1.3, fill: "#5a3b00" }],
         ["path", { d: "M8 17.5q4-3.5 8 0", ...INK }],
         ["path", { d: "M16.5 12q-1.6 2.4 0 3.6q1.6-1.2 0-3.6z", fill: "#42a5f5" }]],
  "🔥": [["path", { d: "M12 2q1 4 4 6.5q3 2.8 2.4 6.5Q17.6 21 12 22Q6.4 21 5.6 15Q5.2 11 9 8q0 3 2 4q-1.2-5 1-10z",
                    fill: "#f4511e" }],
         ["path", { d: "M12 12q.6 2.5 2.2 3.8q1.2 1.6.3 3.4Q13.6 21 12 21t-2.5-1.8q-.8-1.8.6-3.6q.4 1 1.2 1.3q-.6-2.7.7-4.9z",
                    fill: "#ffca28" }]],
  "👏": [["path", { d: "M12 1.5l2.6 6.2 6.7.5-5.1 4.4 1.6 6.5L12 15.6l-5.8 3.5 1.6-6.5-5.1-4.4 6.7-.5z",
                    fill: "#fbc02d", stroke: "#b07d00", "stroke-width": 1 }]],
  "🃏": [["rect", { x: 5, y: 2, width: 14, height: 20, rx: 2.5, fill: "#fff", stroke: "#444",
                    "stroke-width": 1.2 }],
         ["path", { d: "M12 6l1.5 3.4 3.6.3-2.8 2.4.9 3.6L12 13.8l-3.2 1.9.9-3.6-2.8-2.4 3.6-.3z",
                    fill: "#c62828" }]],
};

// The picture of a reaction (any emoji we have no drawing for stays a text, as sent).
export function reactionPicture(emoji) {
  const parts = DRAWINGS[emoji];
  if (!parts) return document.createTextNode(emoji);
  const svg = el("svg", { viewBox: "0 0 24 24", class: "reaction-picture", "aria-hidden": "true",
                          focusable: "false" });
  for (const [name, attrs] of parts) svg.appendChild(el(name, attrs));
  return svg;
}

// What a reaction says, for screen readers and the button's tooltip.
export const REACTION_WORDS = {
  "👍": ["reaction.good", "good"], "👎": ["reaction.bad", "bad"], "😂": ["reaction.funny", "funny"],
  "😮": ["reaction.wow", "wow"], "😢": ["reaction.sad", "sad"], "🔥": ["reaction.hot", "on fire"],
  "👏": ["reaction.well_played", "well played"], "🃏": ["reaction.fool", "what a fool"],
};
