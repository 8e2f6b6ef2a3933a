"""Tokens on a battle map. A move is serialised per token (the row is locked
and its version checked), every change bumps the version, and a hidden token,
like any token of a scene the room is not on, does not exist for anyone but
the GM."""

import re

from django.db import transaction

from vtt.core import shapes
from vtt.db import rows
from vtt.db.transactions import step
from vtt.pictures import images
from vtt.rules import sight

from .. import event_kinds, policy, walls
from ..events import append_event
from ..models import (
    Campaign,
    Character,
    Membership,
    Role,
    RoomEvent,
    Scene,
    SeenToken,
    Token,
)
from ..serialize import markers_of_tokens, token_data, token_moved_data, with_markers
from ..visibility import PARTY, Viewer, own_group
from .access import SYSTEM, actor, find, unknown
from .errors import NotAllowed, NotFound, ServiceError, StaleVersion

# The bounds of a token's fields live here; the API's and the live room's
# schemas check only types, so both doors give the service's one answer.
MAX_TOKEN_SIZE = 10  # squares a side: Gargantuan and then some
MAX_VERSION = 2**31 - 1  # versions start at 1
COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
UPDATABLE = ("name", "size", "color", "character_id", "controllers", "sight_ft", "light_ft")
MAX_SIGHT_FT = 1000  # a dark scene's farthest sight or light: 200 squares


def _color(value) -> str:
    if not isinstance(value, str) or not COLOR.match(value):
        raise shapes.invalid("color", "must be a colour like #1a2b3c")
    return value.lower()


def footprint_fits(scene: Scene, x: int, y: int, size: int) -> bool:
    """The token's whole footprint (size x size squares from (x, y)) lies on the map."""
    return 0 <= x <= scene.width - size and 0 <= y <= scene.height - size


_PLACE = f"UPDATE {Token._meta.db_table} SET x = %s, y = %s, version = %s WHERE id = %s"


def token_place(token: Token, x: int, y: int, by, **extra) -> RoomEvent:
    """Put a token on (x, y) and announce it as token.moved: the one writer
    of a token's place, for a move, a reset to where the turn began and an
    undo. The caller holds the token's row lock, with its scene, and has
    decided who may and that the square is on the map."""
    origin = [token.x, token.y]
    token.x, token.y, token.version = x, y, token.version + 1
    return append_event(
        campaign=token.scene.campaign,
        kind=event_kinds.TOKEN_MOVED,
        data={"token": token_moved_data(token), "from": origin, **extra},
        actor=actor(by),
        scene_id=token.scene_id,
        # Written out, and sent with the event's number: the room's busiest
        # write (no signal listens to a token's save).
        along=(_PLACE, [x, y, token.version, token.pk]),
    )


def check_footprint(scene: Scene, x, y, size: int, fields=("x", "y")):
    """The token's whole footprint (size x size squares from (x, y)) lies on the map."""
    for value, field, side in ((x, fields[0], scene.width), (y, fields[1], scene.height)):
        if type(value) is not int:
            raise shapes.invalid(field, "must be a whole number")
        if not 0 <= value <= side - size:
            raise ServiceError(
                "out_of_bounds",
                f"{field}: a {size}x{size} token must stay on the {scene.width}x{scene.height} "
                f"map ({field} from 0 to {side - size}), not {value}",
                field,
            )


def clean_controllers(campaign_id: int, value) -> list[int]:
    shapes.items(value, "controllers", 50)
    ids = []
    for i, user_id in enumerate(value):
        if type(user_id) is not int:
            raise shapes.invalid(f"controllers[{i}]", "must be a user id")
        ids.append(user_id)
    ids = sorted(set(ids))
    allowed = set(
        Membership.objects.filter(
            policy.takes_part_q(), campaign_id=campaign_id, user_id__in=ids
        ).values_list("user_id", flat=True)
    )
    for user_id in ids:
        if user_id not in allowed:
            raise shapes.invalid("controllers", f"user {user_id} is not a GM or player here")
    return ids


def campaign_character(campaign_id: int, character_id) -> Character | None:
    if character_id is None:
        return None
    if type(character_id) is not int:
        raise shapes.invalid("character_id", "must be a character id or null")
    character = Character.objects.filter(pk=character_id, campaign_id=campaign_id).first()
    if character is None:
        raise shapes.invalid("character_id", "no such character in this campaign")
    return character


def _event(token: Token, kind: str, by, whole: dict | None = None, **extra):
    """Its event, carrying the token as token_data gives it (or `whole`)."""
    append_event(
        campaign=token.scene.campaign,
        kind=kind,
        data={"token": whole or token_data(token), **extra},
        actor=actor(by),
        scene_id=token.scene_id,
    )


def token_changed(token: Token, by, fields=()) -> None:
    """A token changed from outside its own services (its art, the portrait
    it shows, a controller who left): save `fields` with the next version
    and tell the room, as token_update does (the policy keeps a hidden
    token's news to the GM). Its scene and campaign are read: load them."""
    token.version += 1
    token.save(update_fields=[*fields, "version"])
    _event(token, event_kinds.TOKEN_UPDATED, by)


def token_for(token_id: int, by) -> tuple[Token, Membership]:
    """The token if `by` may see it: a GM any of the campaign's, the others
    the visible tokens of the scene the room is on."""
    token, member = find(
        Token.objects.select_related("scene__campaign"),
        token_id,
        by,
        "token",
        campaign="scene.campaign_id",
    )
    viewer = policy.member_viewer(member, token.scene.campaign.settings)
    if not policy.sees_token(viewer, token):
        raise unknown("token")
    return token, member


def token_controlled(token_id: int, by, doing: str = "move tokens") -> tuple[Token, Membership]:
    """The token if `by` sees it and controls it (policy.controls_token):
    not_found for a token they do not see, then forbidden."""
    token, member = token_for(token_id, by)
    if not policy.controls_token(Viewer(member.user_id, member.role), token):
        raise NotAllowed(control_refusal(member, doing))
    return token, member


def control_refusal(who, doing: str = "move tokens") -> str:
    if not policy.takes_part(who):
        return f"an observer may not {doing}"
    return "you do not control this token"


def _gm_token(token_id: int, by, doing: str) -> Token:
    """The token for a GM's change: one membership read decides both."""
    token, member = token_for(token_id, by)
    if not policy.runs_table(member):
        raise NotAllowed(f"only a GM may {doing}")
    return token


def _locked(token: Token) -> Token:
    locked = (
        Token.objects.select_for_update(of=("self",)).select_related("character").get(pk=token.pk)
    )
    locked.scene = token.scene
    return locked


def token_create(
    *,
    scene_id: int,
    by,
    name: str,
    x: int = 0,
    y: int = 0,
    size: int = 1,
    hidden: bool = False,
    color: str = "#888888",
    character_id: int | None = None,
    controllers: list[int] | None = None,
    sight_ft: int = 0,
    light_ft: int = 0,
) -> Token:
    """Put a token on a map. A GM places any token; a player, when the
    campaign lets players place (policy.places_tokens), only a token of
    their own character, on the scene the room is on, not hidden, and
    controlled by them alone (_player_places). With a character and no
    controllers given, the character's owner controls it."""
    scene, member = find(Scene.objects.select_related("campaign"), scene_id, by, "scene", "scene")
    viewer = Viewer(member.user_id, member.role)
    # A scene they may not see is not there, before any refusal of their role.
    if not policy.sees_scene(viewer, scene):
        raise unknown("scene", "scene")
    if not policy.places_tokens(viewer, scene.campaign.settings):
        raise NotAllowed(_placing_refusal(member))
    size = shapes.whole(size, "size", 1, MAX_TOKEN_SIZE)
    check_footprint(scene, x, y, size)
    hidden = shapes.boolean(hidden, "hidden")
    character = campaign_character(scene.campaign_id, character_id)
    if not policy.runs_table(viewer):
        controllers = _player_places(viewer, character, hidden, controllers)
    if controllers is None:
        controllers = [character.owner_id] if character and character.owner_id else []
    controller_ids = clean_controllers(scene.campaign_id, controllers)
    token = Token(
        scene=scene,
        character=character,
        name=shapes.text(name, "name", 120),
        x=x,
        y=y,
        size=size,
        hidden=hidden,
        color=_color(color),
        sight_ft=shapes.whole(sight_ft, "sight_ft", 0, MAX_SIGHT_FT),
        light_ft=shapes.whole(light_ft, "light_ft", 0, MAX_SIGHT_FT),
    )
    with transaction.atomic():
        if not policy.runs_table(viewer):
            # One token of a character per map for a player: the character's
            # row is held so two drops at once cannot both pass.
            Character.objects.select_for_update().filter(pk=character.pk).first()
            if Token.objects.filter(scene=scene, character=character).exists():
                raise ServiceError(
                    "already_placed", f"{character.name} is on this map already", "character_id"
                )
        token.save()
        token.controllers.set(controller_ids)
        _event(token, event_kinds.TOKEN_CREATED, by)
    return token


def _placing_refusal(who) -> str:
    if not policy.takes_part(who):
        return "an observer may not place tokens"
    return "only a GM may place tokens (unless the GM lets players place their own characters)"


def _player_places(viewer: Viewer, character, hidden: bool, controllers) -> list[int]:
    """What a player's placing must be, refused field by field; the
    controllers it gets (the player alone)."""
    if character is None:
        raise NotAllowed("a player places only their own character's token", "character_id")
    if not policy.sees_character(viewer, character):
        # An NPC does not exist for a player: the same answer as no character.
        raise shapes.invalid("character_id", "no such character in this campaign")
    if not policy.places_character(viewer, character):
        raise NotAllowed("you may place only your own character", "character_id")
    if hidden:
        raise NotAllowed("only a GM may place a hidden token", "hidden")
    if controllers is not None and list(controllers) != [viewer.user_id]:
        raise NotAllowed(
            "a token a player places is controlled by that player alone", "controllers"
        )
    return [viewer.user_id]


def _locked_for_move(token_id: int, by) -> tuple[Token | None, str | None]:
    """The token, its row locked, and the mover's role in its campaign (None:
    not a member), read in one statement with what a move is decided on: the
    scene's size and the scene the room is on. Moves are the room's busiest
    write, and the ORM would spend three queries and most of a millisecond
    building them (even a raw queryset's instances cost more than the read);
    the scene and campaign come back as partial instances that only say what
    the move reads of them, the scene's walls as their text (scene_walls)."""
    if by is not SYSTEM and not getattr(by, "is_authenticated", False):
        return None, None
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    token, scene, campaign, member, character, controller, seen = (
        quote(model._meta.db_table)
        for model in (
            Token,
            Scene,
            Campaign,
            Membership,
            Character,
            Token.controllers.through,
            SeenToken,
        )
    )
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    joined = _JOINED_IDS.get(connection.vendor, "group_concat(tc.user_id)")
    # Whether the mover's possible sight groups (the party's, their own)
    # see the token now: the rows are written under the room's row, which
    # the live rooms hold already (vtt.live.group_commit).
    seen_by = (
        f"EXISTS (SELECT 1 FROM {seen} st WHERE st.token_id = t.id AND st.{quote('group')} = %s)"
    )
    columns = rows.columns(connection, Token, "t")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns}, s.width, s.height, s.fog, s.walls, c.settings,"
            f" s.campaign_id, c.active_scene_id,"
            f" ch.portrait, ch.portrait_128, ch.portrait_256,"
            f" (SELECT m.role FROM {member} m"
            f"  WHERE m.campaign_id = s.campaign_id AND m.user_id = %s),"
            f" (SELECT {joined} FROM {controller} tc WHERE tc.token_id = t.id),"
            f" {seen_by}, {seen_by}"
            f" FROM {token} t JOIN {scene} s ON s.id = t.scene_id"
            f" JOIN {campaign} c ON c.id = s.campaign_id"
            f" LEFT JOIN {character} ch ON ch.id = t.character_id"
            f" WHERE t.id = %s{lock}",
            [by.pk, PARTY, own_group(by.pk), token_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None, None
    count = len(Token._meta.concrete_fields)
    token = rows.from_row(Token, connection, row[:count])
    (
        width,
        height,
        fog,
        walls_text,
        settings,
        campaign_id,
        room_scene_id,
        portrait,
        portrait_128,
        portrait_256,
        mover_role,
        controller_list,
        party_sees,
        own_sees,
    ) = row[count:]
    campaign = Campaign(
        pk=campaign_id,
        active_scene_id=room_scene_id,
        settings=rows.read_value(Campaign, "settings", settings, connection),
    )
    # The walls stay text: a path test finds them prepared by it
    # (check_path), and decoding them on every move would cost more.
    token.scene = Scene.from_db(
        connection.alias,
        ("id", "campaign_id", "width", "height", "fog"),
        (token.scene_id, campaign_id, width, height, bool(fog)),
    )
    token.scene.campaign = campaign
    token.scene_walls = walls_text
    token.controller_ids = sorted(int(v) for v in (controller_list or "").split(",") if v)
    groups = ((PARTY, party_sees), (own_group(by.pk), own_sees))
    token.seen_in = {group for group, sees in groups if sees}
    if token.character_id is not None:
        # All the event's token data reads of it: the portrait it falls back to.
        token.character = Character(
            pk=token.character_id,
            portrait=portrait,
            portrait_128=portrait_128,
            portrait_256=portrait_256,
        )
    return token, Role.GM if by is SYSTEM else mover_role


# The controllers' ids joined in one text, by the database's own aggregate.
_JOINED_IDS = {"postgresql": "string_agg(tc.user_id::text, ',')"}


def check_path(token: Token, x: int, y: int) -> None:
    """A player's token goes in a straight line, centre to centre: through
    no wall, closed door or window (vtt.rules.sight). `token` as the move
    read it (_locked_for_move), whose walls' text finds them prepared."""
    half = token.size / 2
    start, end = (token.x + half, token.y + half), (x + half, y + half)
    segments = walls.movement_walls(token.scene_walls)
    if segments and sight.path_blocked(start, end, segments):
        raise ServiceError("blocked", "a wall is in the way", "x")


def token_move(*, token_id: int, by, x: int, y: int, version: int | None = None) -> Token:
    """Move a token (its controllers or a GM). Moves of one token run one at
    a time; one that names an older version than the stored one raises
    StaleVersion carrying the token as it is now."""
    if version is not None and type(version) is not int:
        raise shapes.invalid("version", "must be a whole number")
    with step():
        token, role = _locked_for_move(token_id, by)
        if token is None or role is None:
            raise NotFound("no such token")
        viewer = policy.viewer_in(by.pk, role, token.scene.campaign.settings)
        if not policy.sees_token(viewer, token, seen_in=token.seen_in):
            # Hidden, or on a scene the room is not on: not there for players,
            # and refused before the version could tell its state.
            raise NotFound("no such token")
        if not policy.controls_token(viewer, token):
            raise NotAllowed(control_refusal(viewer))
        if version is not None:
            # Its range is checked only here, after who may see and move the
            # token: a hidden token's refusal tells nothing of its version.
            shapes.whole(version, "version", 1, MAX_VERSION)
            if version != token.version:
                raise StaleVersion(token)
        check_footprint(token.scene, x, y, token.size)
        if (x, y) == (token.x, token.y):
            return token
        if not policy.runs_table(viewer):
            check_path(token, x, y)
        token_place(token, x, y, by)
    return token


def token_update(*, token_id: int, by, **fields) -> Token:
    """Change some of name, size, color, character_id, controllers, sight_ft
    and light_ft (GM)."""
    token = _gm_token(token_id, by, "change tokens")
    for field in fields:
        if field not in UPDATABLE:
            raise ServiceError("unknown_field", f"{field} is not a known field", field)
    campaign_id = token.scene.campaign_id
    with transaction.atomic():
        token = _locked(token)
        if "name" in fields:
            token.name = shapes.text(fields["name"], "name", 120)
        if "size" in fields:
            token.size = shapes.whole(fields["size"], "size", 1, MAX_TOKEN_SIZE)
            check_footprint(token.scene, token.x, token.y, token.size, ("size", "size"))
        if "color" in fields:
            token.color = _color(fields["color"])
        if "character_id" in fields:
            token.character = campaign_character(campaign_id, fields["character_id"])
        if "controllers" in fields:
            token.controllers.set(clean_controllers(campaign_id, fields["controllers"]))
        for field in ("sight_ft", "light_ft"):
            if field in fields:
                setattr(token, field, shapes.whole(fields[field], field, 0, MAX_SIGHT_FT))
        token.version += 1
        token.save()
        _event(token, event_kinds.TOKEN_UPDATED, by)
    return token


EDITABLE = ("name", "color", "size", "x", "y", "character_id", "hidden", "sight_ft", "light_ft")


def token_edit(*, token_id: int, by, version: int | None = None, **fields) -> Token:
    """A GM's edit of a token from one form (the GM console): any of name,
    color, size, x, y, character_id, hidden, sight_ft and light_ft, saved all together or not at
    all. Only what differs from the token changes, and each part through the
    service that makes it alone, so the room hears what the same change made
    there tells it: token.moved from token_move, token.updated from
    token_update, token.hidden or token.revealed from token_set_hidden. A
    new character brings the controllers a new token would get (its owner).
    With `version`, a token changed since (a player moved it) raises
    StaleVersion carrying it as it is now."""
    token = _gm_token(token_id, by, "change tokens")
    for field in fields:
        if field not in EDITABLE:
            raise ServiceError("unknown_field", f"{field} is not a known field", field)
    if version is not None:
        shapes.whole(version, "version", 1, MAX_VERSION)
    with transaction.atomic():
        token = _locked(token)
        if version is not None and version != token.version:
            raise StaleVersion(token, "the token has changed since this form was drawn")
        changes = {
            field: fields[field]
            for field in ("name", "color", "size", "character_id", "sight_ft", "light_ft")
            if field in fields and fields[field] != getattr(token, field)
        }
        if "color" in changes and str(changes["color"]).lower() == token.color:
            del changes["color"]
        size = token.size
        if "size" in changes:
            size = shapes.whole(changes["size"], "size", 1, MAX_TOKEN_SIZE)
        if "character_id" in changes:
            character = campaign_character(token.scene.campaign_id, changes["character_id"])
            changes["controllers"] = (
                [character.owner_id] if character and character.owner_id else []
            )
        hidden = shapes.boolean(fields.get("hidden", token.hidden), "hidden")
        x, y = fields.get("x", token.x), fields.get("y", token.y)
        moves = (x, y) != (token.x, token.y)
        if moves:
            # Where it ends, at the size it ends: the square is what is wrong.
            check_footprint(token.scene, x, y, size)
        # A token about to be hidden vanishes before it goes anywhere, and
        # one to be revealed appears where it ends: players never see the way.
        if hidden and not token.hidden:
            token_set_hidden(token_id=token.pk, by=by, hidden=True)
        # One that grows moves first and one that shrinks moves last, so
        # every step stays on the map when the end does.
        grows = size > token.size
        if changes and not grows:
            token_update(token_id=token.pk, by=by, **changes)
        if moves:
            token_move(token_id=token.pk, by=by, x=x, y=y)
        if changes and grows:
            token_update(token_id=token.pk, by=by, **changes)
        if not hidden and token.hidden:
            token_set_hidden(token_id=token.pk, by=by, hidden=False)
    return Token.objects.select_related("scene__campaign", "character").get(pk=token.pk)


def token_set_hidden(*, token_id: int, by, hidden: bool) -> Token:
    """Hide a token from the players, or reveal it (GM)."""
    token = _gm_token(token_id, by, "hide tokens")
    hidden = shapes.boolean(hidden, "hidden")
    with transaction.atomic():
        token = _locked(token)
        if token.hidden == hidden:
            return token
        token.hidden = hidden
        token.version += 1
        token.save(update_fields=["hidden", "version"])
        if hidden:
            _event(token, event_kinds.TOKEN_HIDDEN, by)
        else:
            # It comes into the players' sight whole: with its markers.
            whole = with_markers(token_data(token), markers_of_tokens([token.pk]))
            _event(token, event_kinds.TOKEN_REVEALED, by, whole)
    return token


def token_delete(*, token_id: int, by) -> None:
    token = _gm_token(token_id, by, "remove tokens")
    with transaction.atomic():
        token = _locked(token)
        _event(token, event_kinds.TOKEN_DELETED, by)
        images.forget_pictures([token])
        token.delete()
