// The session's check page: recompute every roll the viewer saw from the
// revealed seed (./derive.js) and mark each row. The page's data is the
// server's, as the log showed it to this viewer ({{ check|json_script }}).

import { canCheck, checkThrow, fromHex, seedKey, sha256Hex } from "./derive.js";

const data = JSON.parse(document.getElementById("session-check").textContent);
const verdict = document.getElementById("verdict");

function mark(node, state, text) {
  node.dataset.check = state;
  node.textContent = text;
}

async function run() {
  if (!data.seed) return; // the page says so already
  if (!canCheck()) {
    verdict.textContent = "This browser cannot check here: WebCrypto needs HTTPS (or localhost).";
    return;
  }
  const digest = document.getElementById("digest-check");
  const committed = (await sha256Hex(fromHex(data.seed))) === data.digest;
  mark(digest, committed ? "checked" : "mismatch", committed ? "✓ the seed's" : "✗ NOT the seed's digest");
  const key = await seedKey(data.seed);
  let checked = 0;
  let wrong = 0;
  for (const t of data.rolls) {
    if (t.physical) continue;
    const cell = document.querySelector(`tr[data-roll="${t.roll}"] .check`);
    const found = await checkThrow(key, t);
    if (found === null) {
      checked += 1;
      mark(cell, "checked", "✓ checked");
    } else {
      wrong += 1;
      mark(cell, "mismatch", `✗ die ${found.at + 1} shows ${found.shown}; the seed gives ${found.derived}`);
    }
  }
  const physical = data.rolls.filter((t) => t.physical).length;
  const extra = physical ? `; ${physical} with physical dice, not derived` : "";
  verdict.dataset.check = committed && !wrong ? "checked" : "mismatch";
  verdict.textContent =
    committed && !wrong
      ? `Every die checks out: ${checked} roll${checked === 1 ? "" : "s"} recomputed from the seed${extra}.`
      : `Something does not match: ${wrong} roll${wrong === 1 ? "" : "s"} differ${committed ? "" : ", and the seed is not the one committed to"}${extra}.`;
}

run().catch((error) => {
  verdict.dataset.check = "error";
  verdict.textContent = `The check failed: ${error.message || error}`;
});
