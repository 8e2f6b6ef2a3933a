"""The plain-dict forms of the tabletop's objects, shared by the room events,
the live rooms' snapshots and the REST API so every channel shows the same
thing. Only JSON types: these go into the event log as they are."""

from vtt import games

from .models import Campaign, Character, Invite, Marker, Membership, Roll, Scene, Token


def user_data(user) -> dict | None:
    if user is None:
        return None
    return {"id": user.pk, "name": user.get_full_name() or user.get_username()}


def picture_data(image, thumb_128, thumb_256) -> dict | None:
    """A stored picture's URLs: the picture, and its square thumbnails for
    drawing it at token size (each falls back to the picture)."""
    if not image:
        return None
    return picture_urls(image.storage, image.name, thumb_128.name, thumb_256.name)


def picture_urls(storage, image: str | None, thumb_128: str | None, thumb_256: str | None):
    """picture_data from the stored names (a row read with values_list)."""
    if not image:
        return None
    url = storage.url(image)
    return {
        "url": url,
        "thumb_128": storage.url(thumb_128) if thumb_128 else url,
        "thumb_256": storage.url(thumb_256) if thumb_256 else url,
    }


def portrait_data(character: Character) -> dict | None:
    return picture_data(character.portrait, character.portrait_128, character.portrait_256)


def token_art(token: Token) -> tuple[dict | None, str | None]:
    """What the map draws in the token and where it comes from: its own art,
    else its character's portrait ("character"), else nothing. Reads the
    token's character: load it with the token (select_related) in lists."""
    own = picture_data(token.art, token.art_128, token.art_256)
    if own is not None:
        return own, "token"
    if token.character_id is not None:
        portrait = portrait_data(token.character)
        if portrait is not None:
            return portrait, "character"
    return None, None


def token_data(token: Token) -> dict:
    art, art_from = token_art(token)
    return {
        "id": token.pk,
        "scene_id": token.scene_id,
        "character_id": token.character_id,
        "name": token.name,
        "x": token.x,
        "y": token.y,
        "size": token.size,
        "hidden": token.hidden,
        "color": token.color,
        "sight_ft": token.sight_ft,
        "light_ft": token.light_ft,
        "controllers": token.controller_ids,
        "version": token.version,
        "art": art,
        "art_from": art_from,
    }


def marked_token(token: Token) -> dict:
    """The token a marker event is about (event_kinds.MARKED_TOKEN)."""
    return {"id": token.pk, "scene_id": token.scene_id, "name": token.name, "hidden": token.hidden}


def marker_data(marker) -> dict:
    """A status marker as events, snapshots and the REST API carry it."""
    return {
        "id": marker.pk,
        "token_id": marker.token_id,
        "condition_id": marker.condition,
        "icon": marker.icon,
        "label": marker.label,
        "gm_only": marker.gm_only,
    }


def markers_by_token(markers) -> dict[int, list[dict]]:
    """A Marker queryset as each token's markers (marker_data, by id): what
    a token carries in bulk (a snapshot's table, a scene change's)."""
    found: dict[int, list[dict]] = {}
    for marker in markers.order_by("token_id", "id"):
        found.setdefault(marker.token_id, []).append(marker_data(marker))
    return found


def markers_of_tokens(token_ids) -> dict[int, list[dict]]:
    """Every marker of these tokens, the GM's secret ones too: what a stored
    event carries (policy gives players a copy without the secret ones)."""
    return markers_by_token(Marker.objects.filter(token_id__in=list(token_ids)))


def with_markers(token: dict, markers: dict[int, list[dict]]) -> dict:
    """A token's dict carrying its status markers (`markers`: by token)."""
    return {**token, "markers": markers.get(token["id"], [])}


# What a move changes of a token: token.moved carries only these, and a
# reader lays them over the token it holds (moved_token). Entries logged
# before carry the whole token_data; they are told apart by its name.
MOVED_FIELDS = ("id", "scene_id", "x", "y", "version", "hidden")


def token_moved_data(token: Token) -> dict:
    return {
        "id": token.pk,
        "scene_id": token.scene_id,
        "x": token.x,
        "y": token.y,
        "version": token.version,
        "hidden": token.hidden,
    }


def moved_token(moved: dict, held: dict | None) -> dict | None:
    """The whole token a token.moved leaves: its own when the entry carries
    it whole (logged before moves were slim), else its fields laid over the
    token the reader `held`, or None when the reader holds none."""
    if "name" in moved:
        return moved
    if held is None:
        return None
    return {**held, **moved}


# ------------------------------------------------------------------ tokens as a table

# A scene's tokens in bulk (a snapshot, docs/protocol.md "Tokens as a
# table"): token_data's fields as columns in this order, one row a token.
# A row may stop early: the fields it leaves out have the table's default.
# What most tokens leave at the default comes last, so most rows stop
# after `version`; the first REQUIRED fields are in every row.
TOKEN_FIELDS = (
    "id",
    "name",
    "x",
    "y",
    "color",
    "version",
    "character_id",
    "controllers",
    "size",
    "hidden",
    "sight_ft",
    "light_ft",
    "art",
    "art_from",
    # Its status markers (marker_data each): those the table's reader sees.
    "markers",
    "scene_id",
)
REQUIRED = 6
TOKEN_DEFAULTS = {
    "character_id": None,
    "controllers": [],
    "size": 1,
    "hidden": False,
    "sight_ft": 0,
    "light_ft": 0,
    "art": None,
    "art_from": None,
    "markers": [],
}
# What a row is made of, read with values_list (no model instances).
_COLUMNS = (
    *TOKEN_FIELDS[:REQUIRED],
    "character_id",
    "size",
    "hidden",
    "sight_ft",
    "light_ft",
    "scene_id",
    *Token.PICTURE_FIELDS,
    *(f"character__{field}" for field in Character.PICTURE_FIELDS),
)


def token_table(tokens, scene_id: int, markers: dict[int, list[dict]] | None = None) -> dict:
    """A Token queryset of one scene as a table, each row token_data's
    values and its status markers (`markers`, by token: markers_by_token;
    none without): two queries (the rows, then every controller from the
    link table), no model instance."""
    markers = markers or {}
    links = Token.controllers.through.objects.filter(token__in=tokens.values("pk"))
    controllers: dict[int, list[int]] = {}
    for token_id, user_id in links.order_by("user_id").values_list("token_id", "user_id"):
        controllers.setdefault(token_id, []).append(user_id)
    art_storage = Token._meta.get_field("art").storage
    portrait_storage = Character._meta.get_field("portrait").storage
    defaults = {**TOKEN_DEFAULTS, "scene_id": scene_id}
    tail = [defaults[field] for field in TOKEN_FIELDS[REQUIRED:]]
    rows = []
    for values in tokens.values_list(*_COLUMNS):
        character_id, size, hidden, sight_ft, light_ft, scene = values[REQUIRED : REQUIRED + 6]
        # As token_art: its own art, else its character's portrait.
        art, art_from = picture_urls(art_storage, *values[-6:-3]), "token"
        if art is None and character_id is not None:
            art, art_from = picture_urls(portrait_storage, *values[-3:]), "character"
        row = [
            *values[:REQUIRED],
            character_id,
            controllers.get(values[0], []),
            size,
            hidden,
            sight_ft,
            light_ft,
            art,
            art_from if art is not None else None,
            markers.get(values[0], []),
            scene,
        ]
        rows.append(_trimmed(row, tail))
    return {"fields": list(TOKEN_FIELDS), "defaults": defaults, "rows": rows}


def _trimmed(row: list, tail: list) -> list:
    """The row without the values after REQUIRED that are all defaults."""
    end = len(row)
    while end > REQUIRED and row[end - 1] == tail[end - 1 - REQUIRED]:
        end -= 1
    return row[:end]


def tokens_table(tokens: list[dict], defaults: dict) -> dict:
    """token_data dicts as a table with these defaults (token_table's form)."""
    tail = [defaults[field] for field in TOKEN_FIELDS[REQUIRED:]]
    rows = [
        _trimmed([token.get(field, defaults.get(field)) for field in TOKEN_FIELDS], tail)
        for token in tokens
    ]
    return {"fields": list(TOKEN_FIELDS), "defaults": dict(defaults), "rows": rows}


def is_table(tokens) -> bool:
    """Whether a payload's `tokens` is a table (a list: logged before tables)."""
    return isinstance(tokens, dict)


def _column(table: dict, field: str) -> tuple[int, object]:
    """Where a field is in a table's rows, and its value past a row's end."""
    return table["fields"].index(field), table["defaults"].get(field)


def shown_rows(table: dict, seen: set[int] | None = None) -> dict:
    """The table with only the rows players may see: not hidden, and on a
    fog scene (`seen`: the group's view) only the tokens in view."""
    (at_id, _), (at_hidden, hidden) = _column(table, "id"), _column(table, "hidden")
    rows = [
        row
        for row in table["rows"]
        if not (row[at_hidden] if at_hidden < len(row) else hidden)
        and (seen is None or row[at_id] in seen)
    ]
    return {**table, "rows": rows}


def with_column(table: dict, field: str, change) -> dict:
    """The table with `change` applied to one field's value in each row that
    carries it (a row stopping before it keeps the default); a table
    without the field (logged before it) as it is."""
    if field not in table["fields"]:
        return table
    at = table["fields"].index(field)
    rows = [
        [*row[:at], change(row[at]), *row[at + 1 :]] if at < len(row) else row
        for row in table["rows"]
    ]
    return {**table, "rows": rows}


META_FIELDS = ("id", "controllers", "hidden", "version")


def token_metas(table: dict) -> list[dict]:
    """What a live socket keeps of each token of a table (to check drags),
    read straight from the rows: no token decoded in full."""
    columns = [_column(table, field) for field in META_FIELDS]
    (i, _), (c, no_c), (h, no_h), (v, no_v) = columns
    metas = []
    for row in table["rows"]:
        n = len(row)
        metas.append(
            {
                "id": row[i],
                "controllers": row[c] if c < n else no_c,
                "hidden": row[h] if h < n else no_h,
                "version": row[v] if v < n else no_v,
            }
        )
    return metas


def table_tokens(table: dict, only: tuple[str, ...] | None = None) -> list[dict]:
    """The tokens of a table, each as token_data gives it, or with `only`
    these of its fields."""
    fields, defaults = table["fields"], table["defaults"]
    names = fields if only is None else only
    at = [fields.index(name) for name in names]
    tail = [defaults.get(field) for field in fields]  # a row may stop early
    copied = [i for i, value in enumerate(tail) if isinstance(value, list)]
    tokens = []
    for row in table["rows"]:
        if len(row) < len(fields):
            start, row = len(row), [*row, *tail[len(row) :]]
            for i in copied:  # each token its own list, not the table's default
                if i >= start:
                    row[i] = list(row[i])
        tokens.append(dict(zip(names, map(row.__getitem__, at), strict=True)))
    return tokens


def scene_data(scene: Scene) -> dict:
    return {
        "id": scene.pk,
        "name": scene.name,
        "width": scene.width,
        "height": scene.height,
        "background": scene.background.url if scene.background else None,
        "walls": scene.walls,
        "fog": scene.fog,
        "lit": scene.lit,
        "lighting": scene.lighting,
        "baked_lighting": scene.baked_lighting,
    }


def light_data(light) -> dict:
    return {
        "id": light.pk,
        "token_id": light.token_id,
        "x": light.x,
        "y": light.y,
        "bright": light.bright,
        "dim": light.dim,
        "color": light.color,
        "intensity": light.intensity,
        "shadows": light.shadows,
        "on": light.on,
    }


def character_public_data(character: Character) -> dict:
    """What every member of the room may read; gm_notes never leave here."""
    return {
        "id": character.pk,
        "campaign_id": character.campaign_id,
        "name": character.name,
        "kind": character.kind,
        "owner": user_data(character.owner),
        "sheet": character.sheet,
        # What the dice tray offers from this sheet, read by the game's kit.
        "entries": games.kit(character.campaign.game).entries(character.sheet or {}),
        "weapons": character.weapons,
        "resources": character.resources,
        "portrait": portrait_data(character),
        # The wound track's answer: {"state", "out", "dead"}, or None.
        "wounds": games.kit(character.campaign.game).wounds(
            character.resources, character.campaign.settings
        ),
    }


def character_data(character: Character, *, gm: bool) -> dict:
    data = character_public_data(character)
    if gm:
        data["gm_notes"] = character.gm_notes
    return data


def campaign_data(campaign: Campaign) -> dict:
    return {
        "id": campaign.pk,
        "name": campaign.name,
        "game": campaign.game,
        "settings": campaign.settings,
        "active_scene_id": campaign.active_scene_id,
    }


def member_data(member: Membership) -> dict:
    return {"user": user_data(member.user), "role": member.role}


def invite_data(invite: Invite) -> dict:
    return {
        "id": invite.pk,
        "campaign_id": invite.campaign_id,
        "code": invite.code,
        "role": invite.role,
        "expires_at": invite.expires_at.isoformat() if invite.expires_at else None,
        "max_uses": invite.max_uses,
        "uses": invite.uses,
    }


def _name(user) -> str | None:
    return user_data(user)["name"] if user is not None else None


def roll_event_data(roll: Roll, request=None, result=None, draw=None) -> dict:
    """The payload of a "roll" room event. A stored roll's request, result
    and draw come from its entry; a roll being recorded, which has no entry
    yet, passes them."""
    character = roll.character
    if roll.event_id is not None or roll.own_request is not None:
        request, result, draw = roll.request, roll.result, roll.draw
    return {
        "roll_id": roll.pk,
        "roller": user_data(roll.roller),
        "character": {"id": character.pk, "name": character.name} if character else None,
        "request": request,
        "result": result,
        # The result in words, as the game's kit says it (the log's headline).
        "sentence": games.kit(roll.campaign.game).sentence(
            request, result, who=character.name if character else _name(roll.roller)
        ),
        "physical": roll.physical,
        "visibility": roll.visibility,
        # Its place in the play session, to check its dice (docs/dice.md).
        "draw": draw,
    }
