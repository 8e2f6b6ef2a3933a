// The session dice, recomputed in the browser with WebCrypto (docs/dice.md):
// the same construction as the server's vtt/rules/session_dice.py, written
// again so that checking a roll trusts nothing the server runs.
//
// Roll n's dice are read from HMAC-SHA256(key = seed, msg = "session:n:nonce:block")
// for block 0, 1, 2..., each block's 32 bytes in order: a byte below 252 is
// the face byte % 6 + 1, bytes 252-255 are skipped.

const encoder = new TextEncoder();

export function fromHex(hex) {
  if (typeof hex !== "string" || hex.length % 2 || !/^[0-9a-f]*$/.test(hex)) {
    throw new Error("not lower-case hex");
  }
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export function toHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** WebCrypto exists only in a secure context (HTTPS, or localhost). */
export function canCheck() {
  return !!(globalThis.crypto && crypto.subtle);
}

export async function sha256Hex(bytes) {
  return toHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** The seed as an HMAC-SHA256 key. */
export function seedKey(seedHex) {
  return crypto.subtle.importKey("raw", fromHex(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** The first `count` faces of roll `roll` of session `session` with `nonce`. */
export async function deriveFaces(key, session, roll, nonce, count) {
  const faces = [];
  for (let block = 0; faces.length < count; block++) {
    const msg = encoder.encode(`${session}:${roll}:${nonce}:${block}`);
    const bytes = new Uint8Array(await crypto.subtle.sign("HMAC", key, msg));
    for (const b of bytes) if (b < 252) faces.push((b % 6) + 1);
  }
  return faces.slice(0, count);
}

/**
 * Check one throw as the log showed it: null when every die matches, else
 * { at, shown, derived } for the first die that does not.
 */
export async function checkThrow(key, t) {
  const derived = await deriveFaces(key, t.session, t.roll, t.nonce, t.faces.length);
  const at = t.faces.findIndex((face, i) => face !== derived[i]);
  return at < 0 ? null : { at, shown: t.faces[at], derived: derived[at] };
}
