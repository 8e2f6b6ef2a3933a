"""The pieces every game's chat dice notation is made of ("/r 4D+2 diff 3
cp 1"): the words of a roll read left to right, the numbers and names in
them, and the refusal that says what was wrong and how this game's rolls
are written. Each kit's own `notation.py` says what its words mean; the
rules contract checks the request they make, as it checks the tray's.

A refusal is a ServiceError with code `bad_roll` on the field `text`, so
every door shows it as it shows any bad field."""

import re

from vtt.core.errors import ServiceError

BAD_ROLL = "bad_roll"
# "4D + 2", "2d6 +2 -1": a sign after a die or a number belongs to it.
_SIGN_GAP = re.compile(r"(?<=[0-9d])\s*([+-])\s*(?=\d)")
_WHOLE = re.compile(r"^[+-]?\d{1,3}$")
_MAX_WORDS = 20


def refusal(message: str, usage: str) -> ServiceError:
    return ServiceError(BAD_ROLL, f"{message}. {usage}", "text")


def words(text: str) -> list[str]:
    return _SIGN_GAP.sub(r"\1", text.strip().lower()).split()


class Reader:
    """The words of one roll, taken from the left. `usage` is the game's
    syntax in one line, added to every refusal."""

    def __init__(self, text: str, usage: str):
        self.words = words(text)
        self.usage = usage
        self.at = 0
        if not self.words:
            raise self.refuse("Say what to roll")
        if len(self.words) > _MAX_WORDS:
            raise self.refuse("That is too many words for one roll")

    def refuse(self, message: str) -> ServiceError:
        return refusal(message, self.usage)

    def peek(self) -> str | None:
        return self.words[self.at] if self.at < len(self.words) else None

    def next(self, what: str) -> str:
        word = self.peek()
        if word is None:
            raise self.refuse(f"{what} is missing at the end")
        self.at += 1
        return word

    def take(self, *choices: str) -> str | None:
        """The next word when it is one of `choices` (consumed), else None."""
        word = self.peek()
        if word in choices:
            self.at += 1
            return word
        return None

    def match(self, pattern: re.Pattern, what: str) -> re.Match:
        word = self.next(what)
        found = pattern.match(word)
        if found is None:
            raise self.refuse(f"{word!r} is not {what}")
        return found

    def whole(self, after: str) -> int:
        """A whole number (a sign allowed) after the keyword `after`."""
        word = self.next(f"a number after {after!r}")
        if not _WHOLE.match(word):
            raise self.refuse(f"{after!r} takes a whole number, not {word!r}")
        return int(word)

    def level(self, after: str, names: dict) -> int:
        """A number, or a name from `names` (lower case -> number)."""
        word = self.peek()
        if word in names:
            self.at += 1
            return names[word]
        return self.whole(after)

    def end(self) -> None:
        word = self.peek()
        if word is not None:
            raise self.refuse(f"{word!r} is not understood here")


def keyed(reader: Reader, keys: dict, flags: dict, into: dict) -> None:
    """The rest of the words as options in any order: `keys` maps a keyword
    to the request field its number goes to (or a function of the reader
    that reads the value), `flags` a bare word to a field set true. Each
    option at most once."""
    seen = set()
    while (word := reader.peek()) is not None:
        if word in seen:
            raise reader.refuse(f"{word!r} is given twice")
        seen.add(word)
        reader.at += 1
        if word in keys:
            target = keys[word]
            if callable(target):
                target(reader, word, into)
            else:
                into[target] = reader.whole(word)
        elif word in flags:
            into[flags[word]] = True
        else:
            raise reader.refuse(f"{word!r} is not understood here")


def generic_parse(system, text: str) -> dict:
    """Any game's request, written as its rules name it: an action (the
    first one when left out) and `field=value` pairs, a bare field for true:
    "roll pool=3 careful". For a game without a notation of its own."""
    usage = generic_usage(system)
    parts = words(text)
    if not parts:
        raise refusal("Say what to roll", usage)
    actions = list(system.actions)
    action = parts.pop(0) if parts[0] in actions else actions[0]
    request = {"system": system.id, "action": action}
    for part in parts:
        name, sep, value = part.partition("=")
        if not name or name in ("system", "action", "faces"):
            raise refusal(f"{part!r} is not a field=value pair", usage)
        if not sep:
            request[name] = True
        elif _WHOLE.match(value):
            request[name] = int(value)
        elif value in ("true", "false"):
            request[name] = value == "true"
        else:
            request[name] = value
    return request


def generic_usage(system) -> str:
    first = next(iter(system.actions))
    return f"{system.name} rolls: /r {first} field=value ... (actions: {', '.join(system.actions)})"


def generic_help(system) -> str:
    lines = [generic_usage(system)]
    for name, action in system.actions.items():
        lines.append(f"  {name}: {', '.join(action.fields)}")
    return "\n".join(lines)
