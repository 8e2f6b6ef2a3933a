"""The builders of test data, for every folder: people, a campaign with its
seats, scenes, characters and tokens on them, a session cookie. Each makes
its rows through the services a GM's clicks reach, so what a test starts
from is what the table would hold. The tables the folders share
(tests/tabletop/table.py, tests/security, tests/live, tests/combat, the
browser seeds) are laid with these.

Django must be set up before this module is imported: a browser seed (run
with `python -m`) imports it inside its `seed()`."""

from django.contrib.auth import get_user_model
from django.test import Client

from vtt.tabletop import services
from vtt.tabletop.models import Membership, Role

# The five people most tables start from, and the seats of the three who
# sit at the GM's campaign (the fifth stays outside it).
PEOPLE = ("gm", "player", "other", "observer", "stranger")
SEATS = {"player": Role.PLAYER, "other": Role.PLAYER, "observer": Role.OBSERVER}


def person(username: str, password: str | None = None):
    """A user; with no password by default, since most tests log in with
    force_login or a session cookie (`session_cookie`)."""
    return get_user_model().objects.create_user(username, password=password)


def people(names=PEOPLE, prefix: str = "", password: str | None = None) -> dict:
    """{name: user} for each of `names`, each username behind `prefix`."""
    return {name: person(prefix + name, password) for name in names}


def campaign(gm, *, name: str = "The Tomb", game: str = "artifice", seats=None, **options):
    """A campaign of `gm`'s, with `seats` ({user: role}) taken directly, as
    an imported roster would be; `options` go to campaign_create."""
    made = services.campaign_create(owner=gm, name=name, game=game, **options)
    for user, role in (seats or {}).items():
        Membership.objects.create(campaign=made, user=user, role=role)
    return made


def campaign_at_table(users: dict, **options):
    """`users["gm"]`'s campaign with every one of `users` named in SEATS
    seated there (player and other as players, observer watching)."""
    seats = {users[name]: role for name, role in SEATS.items() if name in users}
    return campaign(users["gm"], seats=seats, **options)


def invited(table, gm, user, role: str = "player") -> None:
    """`user` joins `table` the way a person does: by the GM's invitation."""
    invite = services.invite_create(campaign=table, by=gm, role=role)
    services.invite_accept(code=invite.code, user=user)


def scene(table, gm, name: str, *, active: bool = False, **fields):
    """A scene of `table`; with `active`, the one the room is on."""
    made = services.scene_create(campaign_id=table.pk, by=gm, name=name, **fields)
    if active:
        services.scene_activate(scene_id=made.pk, by=gm)
    return made


def token(on_scene, by, name: str, x: int = 0, y: int = 0, **fields):
    """A token on `on_scene`, placed by `by`."""
    return services.token_create(scene_id=on_scene.pk, by=by, name=name, x=x, y=y, **fields)


def character(table, by, name: str, **fields):
    """A character of `table`, made by `by`."""
    return services.character_create(campaign_id=table.pk, by=by, name=name, **fields)


def character_on(on_scene, gm, name, kind, owner, x, y, token_fields=None, **fields):
    """A character made by the GM (owned by `owner`, or nobody) and its
    token on `on_scene` at (x, y): the token's pk and the character."""
    made = services.character_create(
        campaign_id=on_scene.campaign_id,
        by=gm,
        name=name,
        kind=kind,
        owner_id=owner.pk if owner else None,
        **fields,
    )
    placed = token(on_scene, gm, name, x, y, character_id=made.pk, **(token_fields or {}))
    return placed.pk, made


def session_cookie(user) -> str:
    """The session cookie a browser would hold once `user` logged in."""
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value
