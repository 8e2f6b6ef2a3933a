"""A play session's journal: its log from session.started to session.ended
(or now) in words, one entry per thing that happened at the table (rolls,
attacks and their wounds, turns and rounds, chat, scene changes), as one
viewer saw it (docs/journal.md).

Every entry is read through the policy (event_view): the GM's journal has
the hidden rolls, a player's is exactly what their log showed them, and a
whisper is in its two people's journals only. An entry keeps its words as a
fixed template and the values put into it (names, chat, the game's
sentences: text people typed), so each rendering escapes the values alone:
Markdown with its specials escaped, HTML with Django's escaping."""

from dataclasses import dataclass, field
from datetime import datetime

from django.utils.html import conditional_escape, format_html

from vtt import games
from vtt.drawings import kinds as drawing_kinds
from vtt.games.reactions import ATTACK
from vtt.tabletop import event_kinds as kinds
from vtt.tabletop import policy
from vtt.tabletop.models import PlaySession, RoomEvent, Visibility
from vtt.tabletop.visibility import Viewer

from . import sessions

# ------------------------------------------------------------------ Markdown escaping

# Characters that start markup anywhere in a line: emphasis, code, links,
# images, raw HTML, entities, tables, strike-through, backslash itself.
_INLINE = set("\\`*_[]<>#|~!&")
# What makes a line a list item, a quote, a heading underline or a code
# block when it comes first.
_LINE_START = set("-+=>")


def md(text) -> str:
    """`text` as Markdown that shows as the text itself: no markup a person
    typed survives (a chat line of "<script>" or "**bold**" stays literal),
    and a line break stays a line break without starting a block."""
    lines = []
    for line in str(text).splitlines() or [""]:
        line = "".join(f"\\{c}" if c in _INLINE else c for c in line.strip())
        if line[:1] in _LINE_START:
            line = "\\" + line
        else:
            # "1." or "1)" at a line's start would number a list.
            digits = len(line) - len(line.lstrip("0123456789"))
            if digits and line[digits : digits + 1] in (".", ")"):
                line = f"{line[:digits]}\\{line[digits:]}"
        lines.append(line)
    return "\\\n  ".join(lines)  # a hard break, indented into the list item


# ------------------------------------------------------------------ entries


@dataclass(frozen=True)
class Entry:
    seq: int
    at: datetime | None
    kind: str  # what it is about: session, roll, combat, turn, chat, whisper, handout, scene, note
    words: str  # a template: fixed words with {named} values
    values: dict = field(default_factory=dict)
    dice: tuple = ()
    notes: tuple = ()  # fixed words: "GM only", "physical dice"...

    def markdown(self) -> str:
        return self.words.format(**{k: md(v) for k, v in self.values.items()})

    def html(self) -> str:
        if not self.values:  # fixed words alone ("A drawing was erased.")
            return conditional_escape(self.words)
        return format_html(self.words, **self.values)

    @property
    def time(self) -> str:
        return self.at.strftime("%H:%M") if self.at else ""


def _who(user) -> str:
    return user["name"] if user else "Someone"


_ROLL_NOTES = {
    Visibility.GM: "GM only",
    Visibility.BLIND: "blind roll: the GM only",
    Visibility.SELF: "rolled for themselves",
}


def _blind(announced: dict, entry):
    """A blind roll's roller was told only that it was made (policy.blind_announcement)."""
    return entry(
        "roll",
        "{who} made a blind roll: only the GM sees how it went.",
        who=_who(announced["roller"]),
    )


def _roll(data, entry):
    notes = [_ROLL_NOTES[data.visibility]] if data.visibility in _ROLL_NOTES else []
    if data.physical:
        notes.append("physical dice")
    faces = tuple(d["face"] for d in data.result.get("dice", []))
    # The game's sentence names the character rolled for, else the roller.
    words = "{who}: {sentence}" if data.character else "{sentence}"
    return entry(
        "roll",
        words,
        dice=faces,
        notes=tuple(notes),
        who=_who(data.roller),
        sentence=data.sentence,
    )


def _chat(data, entry):
    return entry("chat", "{who}: {text}", who=_who(data.from_), text=data.text)


def _whisper(data, entry):
    return entry(
        "whisper",
        "{who} whispered to {to}: {text}",
        who=_who(data.from_),
        to=_who(data.to),
        text=data.text,
    )


def _handout(data, entry):
    return entry(
        "handout",
        "{who} handed {to} a handout: {title}",
        who=_who(data.from_),
        to=_who(data.to),
        title=data.handout["title"],
    )


def _change(change: dict, game: str | None) -> str:
    weapon = games.kit(game).weapon_change if game in games.KITS else None
    if weapon is not None and change.get("field") == weapon.field and "weapon" in change:
        return weapon.said(change)
    before = "—" if change.get("before") is None else change["before"]
    after = "—" if change.get("after") is None else change["after"]
    what = str(change.get("field", "")).replace("_", " ")
    return f"{change['character']}: {what} {before} → {after}"


_WAITING = {
    "awaiting_damage": "waiting for the GM to apply the damage",
    "awaiting_defender": "waiting for the defender",
    "undone": "undone",
}


def _waiting(attack) -> str:
    """What a pending attack waits for; the defender's, in the words of the
    game's reaction on an attack."""
    status = attack["status"]
    reaction = None
    if status == "awaiting_defender" and attack.get("system") in games.KITS:
        reaction = games.kit(attack["system"]).reaction_on(ATTACK)
    return reaction.waiting.lower() if reaction is not None else _WAITING[status]


def _attack_notes(attack) -> tuple:
    notes = []
    if attack.get("visibility") == Visibility.GM:
        notes.append("hidden from the players")
    if attack.get("physical"):
        notes.append("physical dice")
    if attack.get("status") in _WAITING:
        notes.append(_waiting(attack))
    return tuple(notes)


def _attack(data, entry):
    attack = data.attack
    sentence = attack.get("sentence") or (
        f"{attack['attacker']['name']} attacks {attack['target']['name']}."
    )
    changes = "; ".join(_change(c, attack.get("system")) for c in attack.get("changes", []))
    faces = tuple(d["face"] for s in attack.get("steps", []) for d in s["result"].get("dice", []))
    words = "{sentence} ({changes})" if changes else "{sentence}"
    return entry(
        "combat",
        words,
        dice=faces,
        notes=_attack_notes(attack),
        sentence=sentence,
        changes=changes,
    )


def _damage(data, entry):
    attack = data.attack
    reduced = next((s for s in attack.get("steps", []) if s.get("step") == "reduce"), None)
    taken = reduced["result"].get("damage") if reduced else attack.get("damage")
    changes = "; ".join(_change(c, attack.get("system")) for c in data.changes or [])
    words = "{target} takes {damage} damage" + (" ({changes})." if changes else ".")
    notes = _attack_notes({**attack, "status": None})
    return entry(
        "combat",
        words,
        notes=notes,
        target=attack["target"]["name"],
        damage=taken,
        changes=changes,
    )


def _names(encounter) -> str:
    return ", ".join(c["name"] for c in encounter.get("order", []))


def _encounter_started(data, entry):
    return entry("turn", "An encounter began: {names}.", names=_names(data.encounter))


def _initiative(data, entry):
    if not data.rolls:
        return None  # every roll was for a combatant this viewer does not see
    rolls = ", ".join(f"{r['name']} {r['initiative']}" for r in data.rolls)
    faces = tuple(d["face"] for r in data.rolls for d in r["result"].get("dice", []))
    return entry("turn", "Initiative: {rolls}.", dice=faces, rolls=rolls)


def _turn(data, entry):
    encounter = data.encounter
    current = next((c for c in encounter["order"] if c["id"] == encounter["current"]), None)
    if current is None and encounter.get("unseen_turn"):
        # A combatant this viewer does not see (hidden, or out of their view).
        return entry("turn", "Round {round}: a turn out of sight.", round=encounter["round"])
    name = current["name"] if current else "nobody"
    return entry("turn", "Round {round}: {name}'s turn.", round=encounter["round"], name=name)


def _encounter_updated(data, entry):
    return entry("turn", "The turn order is now {names}.", names=_names(data.encounter))


def _encounter_ended(data, entry):
    return entry("turn", "The encounter ended in round {round}.", round=data.encounter["round"])


def _session_started(data, entry):
    return entry(
        "session",
        "Session {n} began; SHA-256 of its seed: {digest}.",
        n=data.session,
        digest=data.digest,
    )


def _session_ended(data, entry):
    return entry(
        "session",
        "Session {n} ended; its seed is out and every roll can be checked.",
        n=data.session,
    )


def _scene(data, entry):
    return entry("scene", "The table moved to {scene}.", scene=data.scene["name"])


_UNDONE = {
    kinds.COMBAT_ATTACK: "an attack",
    kinds.COMBAT_DAMAGE: "applied damage",
    kinds.CHARACTER_UPDATED: "a change to a character",
    kinds.TOKEN_MOVED: "a move",
}


def _undo(data, entry):
    what = _UNDONE.get(data.undone, "a result")
    # Resources only: the weapons an undo mends are in its `mended`.
    changes = "; ".join(_change(c, None) for c in data.changes or [])
    words = "Undone: " + what + " (#{of})" + (": {changes}." if changes else ".")
    return entry("note", words, of=data.undo_of, changes=changes)


def _repaired(data, entry):
    return entry(
        "note",
        "{character}'s {weapon} is mended.",
        character=data.character,
        weapon=data.weapon,
    )


def _joined(data, entry):
    return entry("note", "{who} joined as {role}.", who=_who(data.user), role=data.role)


def _marker(words: str):
    def say(data, entry):
        marker = data.marker
        notes = ("GM only",) if marker["gm_only"] else ()
        return entry("note", words, notes=notes, token=data.token["name"], marker=marker["label"])

    return say


_SHAPES = {
    "pen": "a freehand line",
    "line": "a line",
    "arrow": "an arrow",
    "rect": "a rectangle",
    "ellipse": "an ellipse",
    "text": "a note",
}


def _drawing_notes(layer: str) -> tuple:
    return ("GM layer",) if policy.drawing_for_gms(layer) else ()


def _drawn(data, entry):
    drawing = data.drawing
    notes = _drawing_notes(drawing["layer"])
    if drawing["shape"] == "text":
        words = "{who} wrote on the map: {text}"
        return entry("note", words, notes=notes, who=_who(drawing["by"]), text=drawing["text"])
    shape = _SHAPES.get(drawing["shape"], "something")
    return entry(
        "note", "{who} drew {shape} on the map.", notes=notes, who=_who(drawing["by"]), shape=shape
    )


def _drawing_moved(data, entry):
    shape = _SHAPES.get(data.drawing["shape"], "something")
    notes = _drawing_notes(data.drawing["layer"])
    return entry("note", "A drawing ({shape}) was moved.", notes=notes, shape=shape)


def _erased(data, entry):
    return entry("note", "A drawing was erased.")


def _cleared(data, entry):
    notes = _drawing_notes(data.layer)
    return entry("note", "The map's drawings were cleared ({n}).", notes=notes, n=len(data.ids))


def _reveal(data, entry):
    inner = WORDS.get(data.type)
    shown = inner(kinds.read_view(data.type, data.data), entry) if inner else None
    if shown is None:
        return None
    return Entry(
        shown.seq,
        shown.at,
        shown.kind,
        shown.words,
        shown.values,
        shown.dice,
        (*shown.notes, f"revealed: #{data.of_seq}"),
    )


# What each kind of log entry says in the journal; a kind not here (a token
# moved, the fog, a sheet's counters) is not part of the story.
WORDS = {
    kinds.SESSION_STARTED: _session_started,
    kinds.SESSION_ENDED: _session_ended,
    kinds.ROLL: _roll,
    kinds.CHAT: _chat,
    kinds.WHISPER: _whisper,
    kinds.HANDOUT_SHARED: _handout,
    kinds.COMBAT_ATTACK: _attack,
    kinds.COMBAT_DAMAGE: _damage,
    kinds.ENCOUNTER_STARTED: _encounter_started,
    kinds.ENCOUNTER_INITIATIVE: _initiative,
    kinds.ENCOUNTER_UPDATED: _encounter_updated,
    kinds.ENCOUNTER_TURN: _turn,
    kinds.ENCOUNTER_ENDED: _encounter_ended,
    kinds.SCENE_ACTIVATED: _scene,
    kinds.UNDO: _undo,
    kinds.REVEAL: _reveal,
    kinds.COMBAT_WEAPON_REPAIRED: _repaired,
    kinds.MEMBER_JOINED: _joined,
    kinds.MARKER_ADDED: _marker("{token} is marked {marker}."),
    kinds.MARKER_REMOVED: _marker("{token} is no longer marked {marker}."),
    drawing_kinds.ADDED: _drawn,
    drawing_kinds.MOVED: _drawing_moved,
    drawing_kinds.REMOVED: _erased,
    drawing_kinds.CLEARED: _cleared,
}


def entry_of(view: dict, at: datetime | None = None) -> Entry | None:
    """A log entry as the viewer received it (policy.event_view), in words;
    `at`, when it was logged."""
    words = WORDS.get(view["type"])
    if words is None or "data" not in view:
        return None

    def entry(kind, template, dice=(), notes=(), **values):
        return Entry(view["seq"], at, kind, template, values, tuple(dice), tuple(notes))

    if view["data"].get("blind"):
        return _blind(view["data"], entry)
    # The kind's payload type, as this viewer received it.
    return words(kinds.read_view(view["type"], view["data"]), entry)


# ------------------------------------------------------------------ the journal


@dataclass(frozen=True)
class Journal:
    campaign: str
    game: str
    session: int
    started_at: datetime
    ended_at: datetime | None
    gm: bool  # the GM's journal (hidden rolls in), or a member's own
    entries: list

    def markdown(self) -> str:
        title = f"# Session {self.session} of {md(self.campaign)}"
        when = f"Started {self.started_at:%Y-%m-%d %H:%M} UTC, " + (
            f"ended {self.ended_at:%Y-%m-%d %H:%M} UTC." if self.ended_at else "still open."
        )
        whose = (
            "The GM's journal: hidden rolls included, marked as such."
            if self.gm
            else "As you saw it: what was hidden from you is not here."
        )
        lines = [title, "", f"{md(self.game)}. {when} {whose} Times in UTC.", ""]
        for e in self.entries:
            line = f"- {e.time} (#{e.seq}) {e.markdown()}"
            if e.dice:
                line += " Dice: " + " ".join(str(f) for f in e.dice) + "."
            if e.notes:
                line += " _(" + md("; ".join(e.notes)) + ")_"
            lines.append(line)
        if not self.entries:
            lines.append("Nothing happened at the table yet.")
        return "\n".join(lines) + "\n"


def events_of(session: PlaySession):
    """The session's log entries, oldest first: from its start to its end,
    or to now while it is open."""
    span = sessions.session_span(session)
    if span is None:
        return RoomEvent.objects.none()
    first, last = span
    events = RoomEvent.objects.filter(campaign_id=session.campaign_id, seq__gte=first)
    if last is not None:
        events = events.filter(seq__lte=last)
    return events.order_by("seq")


def journal(session: PlaySession, viewer: Viewer) -> Journal:
    entries = []
    for event in events_of(session).iterator():
        shown = entry_of(policy.event_view(event, viewer), event.created_at)
        if shown is not None:
            entries.append(shown)
    campaign = session.campaign
    return Journal(
        campaign=campaign.name,
        game=campaign.game_name,
        session=session.number,
        started_at=session.started_at,
        ended_at=session.ended_at,
        gm=policy.runs_table(viewer),
        entries=entries,
    )
