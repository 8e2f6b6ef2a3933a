// What a token shows: its picture clipped to a circle, or its initials on
// its colour; and its wound state as a ring round it with the state in
// words on a plate. Pure helpers and one builder per part; board.js places
// them. The state is never told by colour alone: the plate says it in
// words, the ring's dash pattern differs by severity, and the token's
// aria-label carries it.
// The token (a button) holds no text but its name: the initials and the
// plate's words are printed in a group of their own just after it (its
// "print", aria-hidden), so the text a voice user sees on the button is
// the start of its accessible name (WCAG 2.5.3, Label in Name).

import { svg } from "../lib/dom.js";

export const CLIP_ID = "token-clip";

/** The clip path every token picture uses: a circle filling the picture's box. */
export function clipDefs() {
  return svg(
    "defs",
    {},
    svg(
      "clipPath",
      { id: CLIP_ID, clipPathUnits: "objectBoundingBox" },
      svg("circle", { cx: 0.5, cy: 0.5, r: 0.5 }),
    ),
  );
}

/** One or two letters for a name: the first letters of its first two
 *  words ("Giant Rat" -> "GR"), or a lone word's first two ("Zombie" -> "Zo"). */
export function initials(name) {
  const words = String(name || "").trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "?";
  const letters = (word) => [...word.replace(/^[^\p{L}\p{N}]+/u, "")];
  if (words.length === 1) {
    const [a = "?", b = ""] = letters(words[0]);
    return a.toUpperCase() + b.toLowerCase();
  }
  return words
    .slice(0, 2)
    .map((w) => (letters(w)[0] || "").toUpperCase())
    .join("") || "?";
}

function channel(c) {
  const v = c / 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of "#rrggbb" (grey for anything else). */
export function luminance(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
  if (!m) return luminance("#888888");
  const [r, g, b] = m.slice(1).map((h) => channel(parseInt(h, 16)));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Near-black or white, whichever contrasts more with the colour. */
export function inkFor(hex) {
  const l = luminance(hex);
  const dark = (l + 0.05) / (luminance("#111111") + 0.05);
  const light = 1.05 / (l + 0.05);
  return dark >= light ? "#111111" : "#ffffff";
}

/** The thumbnail for a token drawn `pixels` wide on screen. */
export function artUrl(art, pixels) {
  if (!art) return null;
  return pixels > 128 ? art.thumb_256 || art.url : art.thumb_128 || art.url;
}

/** How bad a mark is: "dead", "out", "hurt" or null (see roster.badge). */
export function severity(mark) {
  if (!mark) return null;
  return mark.fallen || (mark.text ? "hurt" : null);
}

/** The face's parts, created once per token: colour disc and picture. */
export function makeFace() {
  return svg(
    "g",
    { class: "face" },
    svg("circle", { class: "body" }),
    svg("image", { class: "art", "clip-path": `url(#${CLIP_ID})`, preserveAspectRatio: "xMidYMid slice" }),
  );
}

/** The token's print, created once per token: its initials, and its
 *  plate's words while it has a plate (drawCondition adds them). */
export function makePrint(id) {
  return svg("g", { class: "token-print", "aria-hidden": "true", "data-print-for": id }, svg("text", { class: "initials" }));
}

/** Draw the face for a token of `s` squares shown `pixels` wide, its
 *  top left corner at (x, y), and its initials in `print`: the parts are
 *  placed there themselves, with no transform, so a map of thousands of
 *  tokens paints as a few chunks. */
export function drawFace(face, print, token, s, pixels, x = 0, y = 0) {
  const [body, image] = face.children;
  const text = print.firstChild;
  const r = s * 0.4;
  const [cx, cy] = [x + s / 2, y + s / 2];
  body.setAttribute("cx", cx);
  body.setAttribute("cy", cy);
  body.setAttribute("r", r);
  body.setAttribute("fill", token.color || "#888888");
  const url = artUrl(token.art, pixels);
  // The print follows the face's classes: a picture hides the initials.
  for (const part of [face, print]) part.classList.toggle("has-art", !!url);
  if (url) {
    if (image.getAttribute("href") !== url) {
      for (const part of [face, print]) part.classList.remove("art-failed");
      image.setAttribute("href", url);
    }
    // Inset in the colour disc: a rim of the token's colour stays round it.
    const p = r * 0.88;
    for (const [k, v] of Object.entries({ x: cx - p, y: cy - p, width: 2 * p, height: 2 * p })) {
      image.setAttribute(k, v);
    }
  } else {
    image.removeAttribute("href");
  }
  text.textContent = initials(token.name);
  text.setAttribute("x", cx);
  text.setAttribute("y", cy);
  text.style.fill = inkFor(token.color);
  // Inline: a style sheet's font-size would beat an attribute.
  text.style.fontSize = `${r * (text.textContent.length > 1 ? 0.9 : 1.1)}px`;
}

/** The wound mark: a ring round the token and a plate with the state's
 *  name across its top edge (the plate in `wrap`, its words in `print`),
 *  `size` the plate's font size in squares, for a token whose top left
 *  corner is at (x, y). */
export function drawCondition(wrap, print, mark, s, size, x = 0, y = 0) {
  while (wrap.firstChild) wrap.removeChild(wrap.firstChild);
  print.querySelector("text.badge")?.remove();
  const level = severity(mark);
  wrap.setAttribute("data-level", level || "none");
  if (!level) return;
  const cx = x + s / 2;
  wrap.append(svg("circle", { class: "condition-ring", cx, cy: y + s / 2, r: s * 0.45 }));
  if (!mark.text) return;
  const text = svg("text", { class: "badge", x: cx, y, text: mark.text });
  text.style.fontSize = `${size}px`;
  const plate = svg("rect", { class: "badge-bg", rx: size * 0.3 });
  wrap.append(plate);
  print.append(text);
  // The plate fits the text once it is laid out (an estimate before).
  const width = Math.max(text.getComputedTextLength?.() || 0, size * mark.text.length * 0.55) + size * 0.8;
  const height = size * 1.35;
  plate.setAttribute("x", cx - width / 2);
  plate.setAttribute("y", y - height / 2);
  plate.setAttribute("width", width);
  plate.setAttribute("height", height);
}
