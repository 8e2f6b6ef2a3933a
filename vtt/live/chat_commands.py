"""What a chat line starting with "/" does: the one place that knows the
chat's commands, who may use them and which service each one calls.

    /roll, /r      a roll in the campaign's game's notation, for everyone
    /gmroll, /gr   the same roll for the GM only (the tray's "GM only")
    /whisper, /w   a line for one member and the sender
    /help          the commands and this game's notation, to the sender only

A roll is read by the game's kit (GameKit.parse_roll) and made by the same
service as the dice tray's, so it is the same roll event, log sentence,
visibility and spending. "... as NAME" rolls for a character, with the
tray's rule: a player only for their own. Without it the roll is for the
member's own character when they have one, or, of several, the one their
page has chosen (`current`, the tray's "For"); else for nobody. Either way
what the roll spends comes from that character, as from the tray, and the
roll event is marked as said in the chat (`chat`), so the chat shows it
too. A line starting with "//" is
said as it is, less one slash. Anything else starting with "/" is refused
(nothing is posted) with the syntax in the message."""

import re

from vtt import games
from vtt.dice.rolls import roll_adjudicate
from vtt.games.game_settings import defaults
from vtt.tabletop.models import Membership, Visibility
from vtt.tabletop.selectors import characters_for, membership_of, viewer_of
from vtt.tabletop.services.chat import chat_say, chat_whisper, clean_line
from vtt.tabletop.services.errors import NotFound, ServiceError

COMMANDS_HELP = "\n".join(
    (
        "/r ROLL            roll for everyone to see (/roll)",
        "/r ROLL as NAME    roll for one of your characters (what it spends is spent)",
        "/gr ROLL           a hidden roll, for the GM only (/gmroll)",
        '/w NAME TEXT       whisper to one member: a username, a display name ("in quotes"'
        " if it has spaces) or gm (/whisper)",
        "//TEXT             say a line that starts with a slash",
        "/help              this help",
    )
)
USAGE = "Commands: /r, /gr, /w, /help"
# "... as Tenrec": everything after the last " as " names the character.
_AS = re.compile(r"^(?P<roll>.*\S)\s+as\s+(?P<name>\S.*)$", re.IGNORECASE | re.DOTALL)
_QUOTED = re.compile(r'^"(?P<name>[^"]+)"\s*(?P<text>.*)$', re.DOTALL)


def run(asker, text: str, nonce: str | None = None, current: int | None = None) -> dict:
    """Say, roll, whisper or help; what the chat intent's `ack` carries.
    `nonce`: the browser's, for a roll (docs/dice.md); `current`: the
    character the page rolls for (the tray's choice), if any."""
    line = clean_line(text)
    if not line.startswith("/"):
        return {"seq": chat_say(campaign_id=asker.room, by=asker.user, text=line).seq}
    if line.startswith("//"):
        return {"seq": chat_say(campaign_id=asker.room, by=asker.user, text=line[1:]).seq}
    word, _, rest = line[1:].partition(" ")
    command = COMMANDS.get(word.strip().lower())
    if command is None:
        raise ServiceError("unknown_command", f"/{word[:20]} is not a command. {USAGE}", "text")
    if command in (roll, gmroll):
        return command(asker, rest.strip(), nonce, current)
    return command(asker, rest.strip())


def _member(asker) -> tuple[Membership, dict]:
    """The asker's membership (read once per command) and the campaign's settings."""
    member = membership_of(asker.user, asker.room)
    if member is None:
        raise NotFound("no such campaign")
    campaign = member.campaign
    return member, defaults(campaign.game) | (campaign.settings or {})


def _roll(asker, rest: str, visibility: str, nonce: str | None, current: int | None) -> dict:
    member, settings = _member(asker)
    kit = games.kit(member.campaign.game)
    named = _AS.match(rest)
    if named:
        rest = named["roll"]
        character_id = _character(asker, member, named["name"])
    else:
        character_id = _own_character(asker, member, current)
    request = kit.parse_roll(rest, settings)
    try:
        made = roll_adjudicate(
            campaign_id=asker.room,
            by=asker.user,
            request=request,
            visibility=visibility,
            character_id=character_id,
            nonce=nonce,
            from_chat=True,
        )
    except ServiceError as error:
        if error.field and error.field.startswith("request"):
            # The rules' own words, and where to read how rolls are written.
            error.message = f"{error.message} (/help shows how rolls are written)"
        raise
    # The visibility lets the page say where a roll it will not see went.
    return {"roll_id": made.pk, "visibility": made.visibility}


def _character(asker, member, name: str) -> int:
    found = list(
        characters_for(viewer_of(member), asker.room)
        .filter(name__iexact=name.strip())
        .values_list("pk", flat=True)[:2]
    )
    if not found:
        raise ServiceError("not_found", f"no character called {name.strip()!r} here", "character")
    if len(found) > 1:
        raise ServiceError(
            "ambiguous", f"several characters are called {name.strip()!r}", "character"
        )
    return found[0]


def _own_character(asker, member, current: int | None) -> int | None:
    """Whom a roll without "as NAME" is for: the member's one character,
    or of several the page's `current` one; nobody when neither says."""
    own = list(
        characters_for(viewer_of(member), asker.room)
        .filter(owner_id=asker.user.pk)
        .values_list("pk", flat=True)
    )
    if len(own) == 1:
        return own[0]
    return current if current in own else None


def roll(asker, rest: str, nonce: str | None = None, current: int | None = None) -> dict:
    return _roll(asker, rest, Visibility.PUBLIC, nonce, current)


def gmroll(asker, rest: str, nonce: str | None = None, current: int | None = None) -> dict:
    return _roll(asker, rest, Visibility.GM, nonce, current)


def whisper(asker, rest: str) -> dict:
    quoted = _QUOTED.match(rest)
    name, text = (quoted["name"], quoted["text"]) if quoted else (rest.partition(" ")[::2])
    if not name.strip():
        raise ServiceError("invalid", "whisper to whom? /w NAME TEXT", "to")
    if not text.strip():
        raise ServiceError("invalid", "a whisper needs some text: /w NAME TEXT", "text")
    event = chat_whisper(campaign_id=asker.room, by=asker.user, to=name, text=text)
    return {"seq": event.seq}


def help_(asker, rest: str) -> dict:
    """Answered in the acknowledgement: the sender's alone, stored nowhere."""
    member, settings = _member(asker)
    kit = games.kit(member.campaign.game)
    return {"help": f"{COMMANDS_HELP}\n\nRolls in {kit.name}:\n{kit.roll_help(settings)}"}


COMMANDS = {
    "roll": roll,
    "r": roll,
    "gmroll": gmroll,
    "gr": gmroll,
    "whisper": whisper,
    "w": whisper,
    "help": help_,
}
