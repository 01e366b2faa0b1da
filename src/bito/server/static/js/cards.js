// Cards drawn as SVG from their notation ("6h", "Ts", "RJ", "W1", "6h'"; Fool!'s own deck:
// "g12" the green 12, "w1" a wild 1).
import { t } from "./i18n.js";
const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RED = new Set(["d", "h"]);
const SVG = "http://www.w3.org/2000/svg";

function el(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// Fool!'s four colours, by the letter its notation starts with, and how each is painted.
const COLOURS = { g: "green", r: "red", y: "yellow", b: "blue" };
const PAINT = { green: "#2e7d32", red: "#c62828", yellow: "#8a6d00", blue: "#1565c0",
                wild: "#6a1b9a" };

export function parseCard(code) {
  const plain = code.replace(/'+$/, "");
  const own = /^([gryb])(\d{1,2})$/.exec(plain);
  if (own) return { rank: own[2], suit: "", colour: COLOURS[own[1]], special: false };
  if (plain === "w1") return { rank: "1", suit: "", colour: "wild", special: false };
  if (["RJ", "BJ", "MC"].includes(plain) || /^W[1-4]$/.test(plain)) {
    return { rank: plain, suit: "", special: true };
  }
  const rank = plain[0] === "T" ? "10" : plain[0];
  return { rank, suit: plain[1], special: false };
}

export function cardLabel(code) {
  const c = parseCard(code);
  if (c.colour) return cardName(code);  // a colour has no symbol: "green 12"
  return c.special ? c.rank : c.rank + SUITS[c.suit];
}

// A card's name for people and screen readers: "7 of hearts", "семёрка червей".
export function cardName(code) {
  const c = parseCard(code);
  if (c.colour === "wild") return t("card.wild_one", "wild 1");
  if (c.colour) return t(`colour.${c.colour}`, "{colour} {n}", { colour: c.colour, n: c.rank });
  if (c.special) {
    if (c.rank.startsWith("W")) return t("card.W", "wild card {n}", { n: c.rank.slice(1) });
    return t(`card.${c.rank}`, c.rank);
  }
  const rank = c.rank === "10" ? "10" : c.rank;
  return t("card.name", "{rank} of {suit}", {
    rank: t(`rank.${rank}`, rank), suit: t(`suit.${c.suit}`, c.suit) });
}

// A face-up card; `card` is {c: "6h", trump: bool}.
export function cardSvg(card, opts = {}) {
  const info = parseCard(card.c);
  if (info.colour) return colourSvg(card, info, opts);
  const colour = info.special ? "#6a1b9a" : RED.has(info.suit) ? "#c62828" : "#1a1a1a";
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card" + (card.trump ? " trump" : ""),
                          role: "img",
                          "aria-label": card.trump ? t("card.trump", "{card}, trump",
                                                         { card: cardName(card.c) })
                                                   : cardName(card.c) });
  svg.dataset.card = card.c;
  svg.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "face" }));
  const mark = info.special ? info.rank : SUITS[info.suit];
  svg.appendChild(el("text", { x: 6, y: 18, fill: colour, "font-size": 15,
                               "font-weight": "bold" }, info.special ? info.rank : info.rank));
  svg.appendChild(el("text", { x: 6, y: 32, fill: colour, "font-size": 13 },
                     info.special ? "" : mark));
  svg.appendChild(el("text", { x: 32, y: 60, fill: colour, "font-size": info.special ? 16 : 30,
                               "text-anchor": "middle" }, mark));
  if (card.trump) {
    svg.appendChild(el("text", { x: 54, y: 16, "font-size": 12, "text-anchor": "end",
                                 class: "trump-star" }, "★"));
  }
  if (opts.title) svg.appendChild(el("title", {}, opts.title));
  return svg;
}

// The back of a card (the stock, an opponent's hidden cards).
export function backSvg(label) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card back" });
  svg.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "back-face" }));
  if (label !== undefined) {
    svg.appendChild(el("text", { x: 30, y: 50, "font-size": 18, "text-anchor": "middle",
                                 class: "back-label" }, String(label)));
  }
  return svg;
}

// A card of Fool!'s own deck: its number on its colour (a band across the top and a disc in
// the middle, so the colour reads without the number), the wild 1 in all four.
function colourSvg(card, info, opts) {
  const paint = PAINT[info.colour];
  const svg = el("svg", { viewBox: "0 0 60 84", class: `card colour-card ${info.colour}`,
                          role: "img", "aria-label": cardName(card.c) });
  svg.dataset.card = card.c;
  svg.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "face" }));
  if (info.colour === "wild") {
    ["green", "red", "yellow", "blue"].forEach((c, i) => svg.appendChild(
      el("rect", { x: 6 + i * 12, y: 6, width: 12, height: 10, fill: PAINT[c] })));
  } else {
    svg.appendChild(el("rect", { x: 6, y: 6, width: 48, height: 10, rx: 2, fill: paint }));
  }
  svg.appendChild(el("circle", { cx: 30, cy: 50, r: 20, fill: paint }));
  svg.appendChild(el("text", { x: 30, y: 58, fill: "#fff", "font-size": info.rank.length > 1 ? 20 : 24,
                               "font-weight": "bold", "text-anchor": "middle" }, info.rank));
  svg.appendChild(el("text", { x: 6, y: 30, fill: paint, "font-size": 11, "font-weight": "bold" },
                     info.rank));
  if (opts.title) svg.appendChild(el("title", {}, opts.title));
  return svg;
}
