// Numbers a character's sheet offers the tray, per game: pick "Might 3D+1"
// and the pool and its pips are filled in. The numbers are sent as typed
// values, so the odds and the roll see exactly what the form shows.

const signed = (n) => (n >= 0 ? `+${n}` : `${n}`);

function dieCode(code) {
  const match = /^\s*(\d+)\s*[dD]\s*(?:\+\s*(\d+))?\s*$/.exec(code || "");
  return match ? [Number(match[1]), Number(match[2] || 0)] : null;
}

const READERS = {
  artifice: (sheet) => [
    ...Object.entries(sheet.abilities || {}).map(([name, a]) => ({
      label: `${name} ${a.dice}D${a.pips ? signed(a.pips) : ""}`,
      value: a.dice,
      pips: a.pips || 0,
    })),
    ...Object.entries(sheet.attributes || {}).map(([name, r]) => ({ label: `${name} ${r}`, value: r })),
  ],
  fgr: (sheet) => Object.entries(sheet.skills || {}).map(([name, n]) => ({ label: `${name} ${n}`, value: n })),
  xerosum: (sheet) => [
    ...Object.entries(sheet.attributes || {}).map(([name, n]) => ({ label: `${name} (AMod ${signed(n)})`, value: n })),
    ...Object.entries(sheet.skills || {}).map(([name, s]) => ({ label: `${name} (SMod ${signed(s.smod)})`, value: s.smod })),
  ],
  rd6: (sheet) =>
    [...Object.entries(sheet.attributes || {}), ...Object.entries(sheet.skills || {}).map(([n, s]) => [n, s.code])]
      .map(([name, code]) => [name, code, dieCode(code)])
      .filter(([, , parsed]) => parsed)
      .map(([name, code, [dice, pips]]) => ({ label: `${name} ${code}`, value: dice, pips })),
  apocalyptia: (sheet) => [
    ...Object.entries(sheet.traits || {}).map(([name, n]) => ({ label: `${name} ${n}`, value: n })),
    ...Object.entries(sheet.skills || {}).map(([name, s]) => ({ label: `${name} ${s.level}`, value: s.level })),
  ],
};

// The fields a sheet entry fills, and the field beside it that takes pips.
export const FILLABLE = {
  artifice: { names: ["pool", "ability", "finesse", "might", "agility", "toughness"], pips: "modifier" },
  fgr: { names: ["skill", "dice"] },
  xerosum: { names: ["amod", "smod"] },
  rd6: { names: ["dice"], pips: "pips" },
  apocalyptia: { names: ["bonus", "atk_bonus", "def_bonus"] },
};

export function sheetEntries(game, sheet) {
  const read = READERS[game];
  return read && sheet ? read(sheet) : [];
}
