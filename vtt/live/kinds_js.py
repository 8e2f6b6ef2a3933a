"""static/js/room/kinds.js, written from the event kinds' declarations
(vtt.tabletop.event_kinds): the browser's list of the kinds of room event and
of what a member may receive instead of one. tests/live/test_kinds_js.py
checks the file against the declarations, and every kind the scripts name
against the list.

    python -m vtt.live.kinds_js > static/js/room/kinds.js"""

import json


def instead() -> tuple[str, ...]:
    """What a recipient may get instead of an event (policy.event_view)."""
    from vtt.tabletop import event_kinds

    return (event_kinds.REDACTED, event_kinds.SIGHT_CHANGED, event_kinds.TOKEN_REMOVED)


def module_text() -> str:
    # Imported here: the command line sets Django up first (the kinds' module
    # reads the models).
    from vtt.tabletop import event_kinds

    kinds = sorted(event_kinds.KINDS)

    def listed(names) -> str:
        return "".join(f"  {json.dumps(name)},\n" for name in names)

    return (
        "// Written by `python -m vtt.live.kinds_js` from vtt/tabletop/event_kinds.py:\n"
        "// change the declarations and write it again, never by hand.\n"
        "\n"
        "// Every kind of room event.\n"
        f"export const KINDS = Object.freeze([\n{listed(kinds)}]);\n"
        "\n"
        "// What a member may receive instead of an event.\n"
        f"export const INSTEAD = Object.freeze([\n{listed(sorted(instead()))}]);\n"
    )


if __name__ == "__main__":
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "vtt.settings")
    django.setup()
    print(module_text(), end="")
