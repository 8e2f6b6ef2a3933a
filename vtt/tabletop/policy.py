"""Who sees what and who controls what: the one place these are decided.

Every front door (REST, the live room's intents and drags, pages, commands)
and every render (live broadcasts, snapshots, resync pages, combat's REST
answers) asks here. Pure functions over a Viewer and plain values or model
instances; the querysets that filter in SQL for speed take their filter from
the functions beside the rule they mirror (`visible_tokens_q`, ...).

A service that authorizes here once may hand what it found to private
helpers that trust their caller."""

from collections.abc import Mapping

from django.db.models import Exists, F, OuterRef, Q

from . import event_kinds
from .event_kinds import Copy, Sight, Unseen
from .models import Character, Role, SeenToken, Visibility
from .serialize import is_table, shown_rows, with_column
from .visibility import PARTY, Viewer, group_of

# Anyone who is not a GM and not the actor: what "the players" see.
PLAYERS = Viewer(user_id=0, role=Role.PLAYER)


def viewer_in(user_id: int, role: str, settings) -> Viewer:
    """A member as a viewer of their campaign: with the sight group they see
    a fog scene through (the party, or their own with `own_vision`)."""
    return Viewer(user_id, role, group_of(role, user_id, settings) or PARTY)


def member_viewer(member, settings=None) -> Viewer:
    """A membership as a viewer: with the campaign's `settings`, as
    viewer_in sees them (their sight group on a fog scene); without, when
    no fog scene's sight is asked."""
    if settings is None:
        return Viewer(member.user_id, member.role)
    return viewer_in(member.user_id, member.role, settings)


# ------------------------------------------------------------------ tokens


def players_see_token(*, hidden: bool, on_room_scene: bool) -> bool:
    """The rule itself: a token is there for players when it is not hidden
    and stands on the scene the room is on."""
    return not hidden and on_room_scene


def on_room_scene(token) -> bool:
    """Whether a token (with its scene and campaign loaded) is on the room's scene."""
    return token.scene.campaign.active_scene_id == token.scene_id


def sees_token(viewer: Viewer, token, seen_in: set[str] | None = None) -> bool:
    """A GM sees every token of the campaign; the others the visible tokens
    of the scene the room is on, and on a scene with fog only those in
    their group's view now. `token` is a Token with scene__campaign;
    `seen_in`: the groups whose view holds it now, when the caller read
    them with the token (a move does, in its one statement)."""
    if viewer.is_gm:
        return True
    if not players_see_token(hidden=token.hidden, on_room_scene=on_room_scene(token)):
        return False
    if not token.scene.fog:
        return True
    return viewer.group in seen_in if seen_in is not None else in_view(viewer, token.pk)


def in_view(viewer: Viewer, token_id: int) -> bool:
    """Whether the token is in the viewer's group's view of a fog scene now."""
    return SeenToken.objects.filter(group=viewer.group, token_id=token_id).exists()


def controls_token(viewer: Viewer, token) -> bool:
    """Whether `viewer` may move the token (and attack or reset with it): a
    GM any, a player the ones they are a controller of, an observer none.
    `token` is a Token or a token's dict (its `controllers`). Sight is asked
    first, by the caller: a token one does not see is `not_found`, not
    `forbidden`."""
    if viewer.is_gm:
        return True
    if viewer.role != Role.PLAYER:
        return False
    controllers = token["controllers"] if isinstance(token, Mapping) else token.controller_ids
    return viewer.user_id in controllers


def places_tokens(viewer: Viewer, settings: Mapping | None) -> bool:
    """Whether `viewer` may put tokens on a map at all: a GM always, a player
    when the campaign's `players_place_tokens` is on, an observer never.
    What a player may place is narrower still (`places_character`, and the
    token service: the room's scene, not hidden, controlled by them)."""
    if viewer.is_gm:
        return True
    return viewer.role == Role.PLAYER and bool((settings or {}).get("players_place_tokens"))


def opens_doors(viewer: Viewer, settings: Mapping | None) -> bool:
    """Whether `viewer` may open and close doors at all: a GM always, a
    player when the campaign's `players_open_doors` is on (and then only an
    unlocked door next to a token of theirs: the scene service)."""
    if viewer.is_gm:
        return True
    return viewer.role == Role.PLAYER and bool((settings or {}).get("players_open_doors"))


def places_character(viewer: Viewer, character) -> bool:
    """Whose token `viewer` may place: a GM any character's, a player only
    their own player character's."""
    if viewer.is_gm:
        return True
    return (
        viewer.role == Role.PLAYER
        and character.kind == Character.Kind.PC
        and character.owner_id == viewer.user_id
    )


def sees_if(viewer: Viewer, *, players_see: bool) -> bool:
    """Sight of something whose players' sight is already decided (a token
    the live room knows as hidden from players): the GM sees it regardless."""
    return viewer.is_gm or players_see


def visible_tokens_q(viewer: Viewer, prefix: str = "") -> Q:
    """sees_token as a filter on Token querysets (`prefix`: through a relation, "token__")."""
    if viewer.is_gm:
        return Q()
    token_id = f"{prefix}pk" if prefix else "pk"
    seen = SeenToken.objects.filter(group=viewer.group, token_id=OuterRef(token_id))
    return Q(
        **{
            f"{prefix}hidden": False,
            f"{prefix}scene__campaign__active_scene_id": F(f"{prefix}scene_id"),
        }
    ) & (Q(**{f"{prefix}scene__fog": False}) | Q(Exists(seen)))


# ------------------------------------------------------------------ markers


def sees_marker(viewer: Viewer, marker, token) -> bool:
    """A status marker is seen by whoever sees its token, a GM-only one by
    the GM alone. `token`: the marker's Token with scene__campaign."""
    if marker.gm_only and not viewer.is_gm:
        return False
    return sees_token(viewer, token)


def visible_markers_q(viewer: Viewer) -> Q:
    """sees_marker as a filter on Marker querysets."""
    if viewer.is_gm:
        return Q()
    return Q(gm_only=False) & visible_tokens_q(viewer, "token__")


def shown_markers(markers: list[dict]) -> list[dict]:
    """The markers (marker_data each) players see of a token they see: not
    the GM's secret ones (sees_marker, on what a payload carries)."""
    return [marker for marker in markers if not marker["gm_only"]]


def token_for_players(token: dict) -> dict:
    """A token's dict as players get it: its markers without the secret ones."""
    if "markers" not in token:
        return token
    return {**token, "markers": shown_markers(token["markers"])}


def tokens_for_players(tokens):
    """token_for_players of a token, a list of them or a table of them."""
    if is_table(tokens) and "fields" in tokens:
        return with_column(tokens, "markers", shown_markers)
    if isinstance(tokens, list):
        return [token_for_players(token) for token in tokens]
    return token_for_players(tokens)


def marker_audience(gm_only: bool) -> str:
    """The visibility a marker's events are appended with (the token's own
    sight narrows it further, at append)."""
    return Visibility.GM if gm_only else Visibility.PUBLIC


def may_mark_token(who, token, *, condition: bool, gm_only: bool) -> bool:
    """Who may add or remove a marker on a token they see: a GM any marker
    on any token; a player only one of the game's declared conditions, on
    a token they control, never a GM-only one (a condition is a fact of
    the rules a player tracks for their own character, as they spend its
    counters; free text and secrets are the GM's); an observer none."""
    if runs_table(who):
        return True
    if not condition or gm_only:
        return False
    return controls_token(Viewer(who.user_id, who.role), token)


# ------------------------------------------------------------------ area templates


def sees_template(viewer: Viewer, template) -> bool:
    """An area template (vtt.areas) is everyone's while the room is on its
    scene, the GM's alone when GM-only or on another scene. `template`:
    with scene__campaign."""
    if viewer.is_gm:
        return True
    return not template.gm_only and template.scene.campaign.active_scene_id == template.scene_id


def visible_templates_q(viewer: Viewer) -> Q:
    """sees_template as a filter on AreaTemplate querysets."""
    if viewer.is_gm:
        return Q()
    return Q(gm_only=False, scene__campaign__active_scene_id=F("scene_id"))


def may_place_template(who, *, gm_only: bool) -> bool:
    """A GM any template, a player a template everyone sees (on the room's
    scene: the service), an observer none."""
    if runs_table(who):
        return True
    return takes_part(who) and not gm_only


def may_remove_template(who, template) -> bool:
    """A GM any template, a player the ones they placed."""
    if runs_table(who):
        return True
    return takes_part(who) and template.by_id is not None and template.by_id == who.user_id


# ------------------------------------------------------------------ drawings
# A drawing (vtt.drawings) lies on a layer of its scene: "shared", seen as
# anything on the map is (the room's scene; under fog where the group's map
# shows some of its points), or "gm", the GMs' alone.

GM_LAYER = "gm"


def may_draw(who, settings: Mapping | None, layer: str) -> bool:
    """Draw on a layer (and send a stroke's preview): the GM any; a player
    the shared layer while the campaign's `drawing` setting is "everyone"
    (its default), never the GM's; an observer never."""
    if runs_table(who):
        return True
    if drawing_for_gms(layer) or not takes_part(who):
        return False
    return (settings or {}).get("drawing", "everyone") == "everyone"


def may_change_drawing(who, drawing) -> bool:
    """Move or remove a drawing: the GM any, a player their own (`by_id`),
    an observer none."""
    if runs_table(who):
        return True
    return takes_part(who) and drawing.by_id is not None and drawing.by_id == who.user_id


def may_clear_drawings(who) -> bool:
    """Clear a scene's drawings, any member's: the GM's."""
    return runs_table(who)


def sees_drawing(viewer: Viewer, drawing, scene, shows) -> bool:
    """The GM sees every drawing; the others a shared one on the scene the
    room is on, and on a fog scene only when their group's map shows some
    of its points (`shows(points)`, vtt.fog.points.group_shows: asked last,
    as it reads the fog). `drawing` has a `layer` and `points`; `scene`,
    its campaign."""
    if viewer.is_gm:
        return True
    if drawing_for_gms(drawing.layer) or not sees_scene(viewer, scene):
        return False
    return not scene.fog or shows(drawing.points)


def drawing_for_gms(layer: str) -> bool:
    """Whether a drawing (and its stroke's preview) is the GMs' alone."""
    return layer == GM_LAYER


def drawing_audience(layer: str) -> str:
    """The visibility a drawing's events are appended with (another scene's
    and, under fog, each group's sight narrow it further, at append)."""
    return Visibility.GM if drawing_for_gms(layer) else Visibility.PUBLIC


# ------------------------------------------------------------------ scenes, characters, attacks


def sees_scene(viewer: Viewer, scene) -> bool:
    """A GM sees every map; the others the one the room is on."""
    return viewer.is_gm or scene.campaign.active_scene_id == scene.pk


def sees_lights(viewer: Viewer, scene) -> bool:
    """A scene's lights are listed to the GM, and to the others on a scene
    without fog: under fog a light would tell of a room nobody has seen."""
    return viewer.is_gm or not scene.fog


def switches_light(viewer: Viewer, controllers) -> bool:
    """Whether `viewer` may turn a light on or off: the GM any, a member a
    light carried by a token they control (`controllers`: its user ids;
    empty for a light on the map). Placing, moving and removing are the GM's."""
    return viewer.is_gm or viewer.user_id in set(controllers)


def visible_scenes_q(viewer: Viewer) -> Q:
    """sees_scene as a filter on Scene querysets."""
    return Q() if viewer.is_gm else Q(campaign__active_scene_id=F("pk"))


def sees_character(viewer: Viewer, character) -> bool:
    """NPCs are the GM's: for everyone else they do not exist."""
    return viewer.is_gm or character.kind == Character.Kind.PC


def visible_characters_q(viewer: Viewer) -> Q:
    return Q() if viewer.is_gm else Q(kind=Character.Kind.PC)


def sees_attack(viewer: Viewer, attack) -> bool:
    """A public attack, unless on a fog scene it was on or by a token out of
    the viewer's group's view (its event's `sight` annotation)."""
    if viewer.is_gm:
        return True
    if attack.visibility != Visibility.PUBLIC:
        return False
    annotation = attack.event.data.get(event_kinds.SIGHT) if attack.event_id else None
    if annotation is None:
        return True
    mine = annotation["groups"].get(viewer.group)
    return mine is not None and not mine["unseen"]


def visible_attacks_q(viewer: Viewer) -> Q:
    """sees_attack as a filter, and on a fog scene not an attack on or by a
    token out of the viewer's group's view as it was made."""
    if viewer.is_gm:
        return Q()
    # Spelled without a negation: a JSON path that is not there is NULL.
    seen = (
        Q(event__isnull=True)
        | ~Q(event__data__has_key=event_kinds.SIGHT)
        | Q(**{f"event__data__{event_kinds.SIGHT}__groups__{viewer.group}__unseen": False})
    )
    return Q(visibility=Visibility.PUBLIC) & seen


# ------------------------------------------------------------------ handouts


def sees_handout(viewer: Viewer, handout) -> bool:
    """A GM sees every handout; anyone else one shared with everyone or
    with them (`handout`: a Handout with its shares readable)."""
    if viewer.is_gm:
        return True
    return handout.everyone or handout.shares.filter(user_id=viewer.user_id).exists()


def visible_handouts_q(viewer: Viewer) -> Q:
    """sees_handout as a filter on Handout querysets."""
    if viewer.is_gm:
        return Q()
    return Q(everyone=True) | Q(shares__user_id=viewer.user_id)


# ------------------------------------------------------------------ who may act
# `who` is a Viewer or a Membership: anything with a `user_id` and a `role`.
# The services ask these once, before they write; the pages and the room's
# capabilities (`capabilities`) read the same answers.


def runs_table(who) -> bool:
    """The GM's alone: campaigns, scenes, members, invites, NPCs, awards,
    damage, undoing others' results. The server acting on its own
    authority (access.SYSTEM) is a GM."""
    return who.role == Role.GM


def takes_part(who) -> bool:
    """A GM or a player: observers watch and change nothing."""
    return who.role != Role.OBSERVER


def owns_character(who, character) -> bool:
    """Whether `who` is the character's owner (whatever their role now: an
    observer may still own a character, and may do nothing with it)."""
    return character.owner_id is not None and character.owner_id == who.user_id


def may_ping(who) -> bool:
    """Point at the map for the others (a ping): a GM or a player. An
    observer's seat watches; a pulse on everyone's map during play is a
    turn at the table, not a remark in the chat (docs/realtime.md, "Pings")."""
    return takes_part(who)


def may_pull_view(who) -> bool:
    """Pan everyone else's map to a point (a ping's "pull"): the GM's."""
    return runs_table(who)


def may_edit_character(who, character) -> bool:
    """Edit, delete, spend for, picture: a GM any character, a player their own."""
    return runs_table(who) or (takes_part(who) and owns_character(who, character))


def may_roll_for(who, character) -> bool:
    """A GM rolls for anyone; a player only for their own player characters."""
    return runs_table(who) or (
        character.kind == Character.Kind.PC and may_edit_character(who, character)
    )


def takes_part_q() -> Q:
    """takes_part as a filter on Memberships: the members who may own a
    character or control a token."""
    return ~Q(role=Role.OBSERVER)


def gms_q() -> Q:
    """The campaign's GMs, as a filter on Memberships (a whisper "to the
    GM", the campaign keeping one GM)."""
    return Q(role=Role.GM)


def players_q() -> Q:
    """The members who see through a sight group of their own when the
    table gives each player one, as a filter on Memberships."""
    return Q(role=Role.PLAYER)


def sight_key(viewer: Viewer) -> str:
    """Which of a room's renders a viewer reads: the GM's ("gm"), or their
    sight group's ("@party")."""
    return "gm" if viewer.is_gm else f"@{viewer.group}"


def render_group(role: str, group: str, rendered: Mapping | None, nobody: str) -> str:
    """Whose render of a fog scene's event a member reads: a player their
    own sight group's (`nobody`'s, which saw nothing, when the event's
    annotation does not name it), an observer the party's; a GM, or an
    event with no fog (`rendered` None), reads no group's."""
    if rendered is None:
        return ""
    if role == Role.PLAYER:
        return group if group in rendered else nobody
    if role == Role.OBSERVER:
        return PARTY
    return ""


def sight_groups(who) -> dict | None:
    """The sight group a member sees a fog scene through, as the table
    shares one view (`shared`) and as it gives each player their own
    (`own`); None for a GM, who sees through fog. Served to the browser
    (the GM's "see as", a replay's fog), which picks by the setting."""
    if runs_table(who):
        return None
    return {
        "shared": group_of(who.role, who.user_id, {}) or PARTY,
        "own": group_of(who.role, who.user_id, {"own_vision": True}) or PARTY,
    }


def _by_setting(decides, viewer: Viewer, setting: str) -> str:
    """A decision that a campaign setting may open to a member, as the
    browser is told it: "always", "with_setting" (while the setting is
    on, which the page follows live) or "never"."""
    if decides(viewer, {}):
        return "always"
    return "with_setting" if decides(viewer, {setting: True}) else "never"


def capabilities(who) -> dict:
    """What the room page may offer this member, as served to the browser
    (`may` in the page's config, read by static/js/room/may.js), which
    draws its controls from it and decides nothing itself: the GM's tools
    (`runs_table`), acting at all (`takes_part`: rolling, attacking,
    making characters), placing tokens and opening doors (`places_tokens`,
    `opens_doors`: "always", "with_setting" or "never"), and the reach of
    `controls_token` (`tokens`: "any", the "controlled" ones, "none") and
    of `may_edit_character` (`characters`: "any", their "own", "none"; a
    player's page holds player characters only, so "own" also answers
    rolling for, spending for and placing them). Each is only what the
    page offers: the service decides again, once, when asked."""
    viewer = Viewer(who.user_id, who.role)
    gm, acts = runs_table(who), takes_part(who)
    return {
        "runs_table": gm,
        "takes_part": acts,
        "places_tokens": _by_setting(places_tokens, viewer, "players_place_tokens"),
        "opens_doors": _by_setting(opens_doors, viewer, "players_open_doors"),
        "tokens": "any" if gm else "controlled" if acts else "none",
        "characters": "any" if gm else "own" if acts else "none",
        "pings": may_ping(who),
        "pulls_view": may_pull_view(who),
        # may_mark_token's reach: every marker, or conditions on the
        # tokens a player controls, or none.
        "markers": "any" if gm else "conditions" if acts else "none",
        # may_place_template's reach: GM-only ones too, or those everyone sees.
        "templates": "any" if gm else "public" if acts else "none",
        # may_draw on the shared layer: "always", "with_setting" (while the
        # campaign's `drawing` setting is "everyone") or "never"; the GM
        # layer and clearing a scene's drawings: the GM's.
        "draws": "always" if gm else "with_setting" if acts else "never",
        "gm_drawings": gm,
    }


# ------------------------------------------------------------------ turn order


def order_without(encounter: dict, tokens) -> dict:
    """A turn order (an encounter's dict) without the combatants whose tokens
    are in `tokens`: hidden, or on a fog scene out of the viewer's group's
    view. A combatant without a token is on no map and stays. On the turn of
    one left out the viewer learns only that: `current` and `turn` null,
    `unseen_turn` true (the round and the turn count go on for everyone)."""
    tokens = set(tokens)
    order = [c for c in encounter["order"] if c["token_id"] not in tokens]
    ids = [c["id"] for c in order]
    current = encounter["current"]
    shown = current in ids
    return {
        **encounter,
        "order": order,
        "current": current if shown else None,
        "turn": ids.index(current) if shown else None,
        "unseen_turn": bool(encounter.get("unseen_turn")) or (current is not None and not shown),
    }


def fight_without(data: dict, tokens) -> dict:
    """An encounter event's payload without those tokens' combatants: out of
    the order and out of the initiative rolls."""
    tokens = set(tokens)
    seen = {**data, "encounter": order_without(data["encounter"], tokens)}
    if "rolls" in data:
        seen["rolls"] = [r for r in data["rolls"] if r["token_id"] not in tokens]
    return seen


# ------------------------------------------------------------------ rolls and events


def sees_in_full(viewer: Viewer, visibility: str, actor_id: int | None) -> bool:
    """May `viewer` see everything of a roll or event with this visibility?"""
    if visibility == Visibility.PUBLIC or viewer.is_gm:
        return True
    if visibility == Visibility.SELF:
        return actor_id == viewer.user_id
    return False  # gm and blind: the GM only


def knows_it_happened(viewer: Viewer, visibility: str, actor_id: int | None) -> bool:
    """A blind roll's roller learns that it was made, not what it gave."""
    return sees_in_full(viewer, visibility, actor_id) or (
        visibility == Visibility.BLIND and actor_id == viewer.user_id
    )


# How a viewer sees a roll (roll_sight): all of it, or only that it was made.
IN_FULL, AS_MADE = "in_full", "as_made"


def roll_sight(viewer: Viewer, roll) -> str | None:
    """How `viewer` sees a roll: IN_FULL, AS_MADE (their own blind roll:
    that it was made, nothing of its dice) or None (not at all), exactly as
    the room showed them its "roll" entry (event_view): by its visibility
    and, on a scene with fog, by whether their group saw the tokens of the
    character it was for. A hidden roll the GM has revealed since is
    everyone's in full, as its public reveal is (a reveal carries no fog).
    The REST list and detail ask here; the log's readers (journal, replay,
    a session's check, dice statistics) render the entry with event_view
    themselves. `roll`: a Roll with its event loaded."""
    if roll.event_id is None:  # recorded before rolls had entries (and fog)
        if sees_in_full(viewer, roll.visibility, roll.roller_id):
            return IN_FULL
        return AS_MADE if knows_it_happened(viewer, roll.visibility, roll.roller_id) else None
    if roll.visibility == Visibility.PUBLIC and roll.event.visibility != Visibility.PUBLIC:
        # Revealed: the reveal makes the row public; its entry stays as logged.
        return IN_FULL
    view = event_view(roll.event, viewer)
    if view["type"] != event_kinds.ROLL:
        return None
    return AS_MADE if view["data"].get("blind") else IN_FULL


def visible_rolls_q(viewer: Viewer) -> Q:
    """roll_sight as a filter on Roll querysets: the rolls `viewer` sees in
    full and their own blind rolls, and of a roll for a character on a fog
    scene only one whose entry their group saw, unless revealed since."""
    if viewer.is_gm:
        return Q()
    hidden = [Visibility.GM, Visibility.SELF, Visibility.BLIND]
    own = Q(roller_id=viewer.user_id)
    shown = Q(visibility=Visibility.PUBLIC) | (
        own & Q(visibility__in=[Visibility.SELF, Visibility.BLIND])
    )
    # Spelled without a negation of the group's answer: a JSON path that is
    # not there (a group the table did not have then) is NULL, and unseen.
    seen = (
        Q(event__isnull=True)
        | ~Q(event__data__has_key=event_kinds.SIGHT)
        | Q(**{f"event__data__{event_kinds.SIGHT}__groups__{viewer.group}__unseen": False})
        | Q(visibility=Visibility.PUBLIC, event__visibility__in=hidden)
    )
    return shown & seen


def blind_announcement(data: dict) -> dict:
    """What the roller of a blind roll is told: that it was made, nothing more."""
    request = data["request"]
    return {
        "blind": True,
        "roller": data["roller"],
        "system": request.get("system"),
        "action": request.get("action"),
    }


def token_event_hidden(event) -> bool:
    """Whether players do not see the token a token event is about: hidden,
    or on a scene the room was not on when the event was numbered (its
    stored audience says so), or going out of their sight."""
    return not players_see(event)


def unseen_token_events_q(viewer: Viewer) -> Q:
    """The token events `viewer` (not a GM) did not see, as a filter on
    RoomEvent querysets: token_event_hidden, and on a fog scene a token out
    of their group's view (its `sight` annotation)."""
    group = viewer.group
    fogged = Q(data__has_key=event_kinds.SIGHT) & (
        ~Q(**{f"data__{event_kinds.SIGHT}__groups__has_key": group})
        | Q(**{f"data__{event_kinds.SIGHT}__groups__{group}__sees": []})
    )
    return Q(data__token__hidden=True) | ~Q(visibility=Visibility.PUBLIC) | fogged


def addressee(event) -> int | None:
    """The one member besides its actor that an addressed event (a whisper)
    is for; None for every other kind."""
    if event_kinds.KINDS[event.kind].sight != Sight.ADDRESSED:
        return None
    return event.data["to"]["id"]


def sees_addressed(viewer: Viewer, actor_id: int | None, to_id: int) -> bool:
    """A whisper is its two people's: the sender and the recipient, whatever
    their roles. A GM who is neither does not read it."""
    return viewer.user_id in (actor_id, to_id)


def event_view(event, viewer: Viewer) -> dict:
    """The event as `viewer` receives it. Every viewer gets every sequence
    number (so a gap always means a lost message), but what they may not see
    is reduced to {"seq", "type": "redacted"}, and a blind roll to its bare
    announcement. How is the kind's declared sight (vtt.tabletop.event_kinds)."""
    view = _event_view(event, viewer)
    if event_kinds.SIGHT in event.data:
        view = _through_fog(event, viewer, view)
    return _without_gm_keys(event, viewer, view)


def _without_gm_keys(event, viewer: Viewer, view: dict) -> dict:
    """The payload keys its kind keeps for the GM (Kind.gm_keys) taken out
    of the others' copy."""
    keys = event_kinds.KINDS[event.kind].gm_keys
    if not keys or viewer.is_gm or view["type"] != event.kind or "data" not in view:
        return view
    return {**view, "data": {k: v for k, v in view["data"].items() if k not in keys}}


def _event_view(event, viewer: Viewer) -> dict:
    """By the audience stored with the event and the version its kind
    declares for players (event_kinds.Kind.players, .unseen)."""
    redacted = {"seq": event.seq, "type": event_kinds.REDACTED}
    declared = event_kinds.KINDS[event.kind]
    if declared.sight == Sight.ADDRESSED:
        if sees_addressed(viewer, event.actor_id, addressee(event)):
            return {"seq": event.seq, "type": event.kind, "data": event.data}
        return redacted
    visibility = audience(event)
    if sees_in_full(viewer, visibility, event.actor_id):
        if viewer.is_gm:
            return _stamped({"seq": event.seq, "type": event.kind, "data": event.data}, event)
        if declared.players == Copy.FULL:
            data = _markers_for_players(declared, event.data)
            return _stamped({"seq": event.seq, "type": event.kind, "data": data}, event)
        if declared.players == Copy.REMOVED:
            token_id = event.data["token"]["id"]
            return {
                "seq": event.seq,
                "type": event_kinds.TOKEN_REMOVED,
                "data": {"token_id": token_id},
            }
        data = _players_copy(declared, _markers_for_players(declared, event.data))
        return _stamped({"seq": event.seq, "type": event.kind, "data": data}, event)
    if declared.unseen == Unseen.ANNOUNCED and knows_it_happened(
        viewer, visibility, event.actor_id
    ):
        view = {"seq": event.seq, "type": event.kind, "data": blind_announcement(event.data)}
        return _stamped(view, event)
    return redacted


def _markers_for_players(declared, data: dict) -> dict:
    """A payload whose tokens carry their markers (the kind's declared
    `markers_in`) without the GM's secret ones."""
    key = declared.markers_in
    if key is None or key not in data:
        return data
    return {**data, key: tokens_for_players(data[key])}


def _players_copy(declared, data: dict, mine: dict | None = None) -> dict:
    """The players' version of a payload (`mine`: on a fog scene, what
    their group saw of it)."""
    if declared.players == Copy.MAP:
        # Logged before tables: the players' copy is in the entry.
        data = data.get("players_view") or data
        return _scene_for_players(data, set(mine["enter"]) if mine is not None else None)
    if declared.players == Copy.FIGHT:
        # An event about hidden things too (a turn order with a hidden
        # monster) carries what players may see of it.
        data = data["players_view"] if "players_view" in data else data
        if mine is not None and mine.get("out_of_view"):
            data = fight_without(data, mine["out_of_view"])
        return data
    return data


def _through_fog(event, viewer: Viewer, view: dict) -> dict:
    """An event on a scene with fog (its `sight` annotation, written as it
    was appended by vtt.fog.vision): nobody receives the annotation;
    a player's group receives only what it saw, and the tokens that came
    into and went out of its view because of the event."""
    if "data" in view:
        view["data"] = {k: v for k, v in view["data"].items() if k != event_kinds.SIGHT}
    if viewer.is_gm:
        return view
    annotation = event.data[event_kinds.SIGHT]
    mine = annotation["groups"].get(viewer.group)
    if mine is None:  # a group the table did not have then: nothing of it
        return {"seq": event.seq, "type": event_kinds.REDACTED}
    declared = event_kinds.KINDS[event.kind]
    if declared.players == Copy.MAP and view["type"] == event.kind:
        # A map's tokens: its copy for the group is all the group learns.
        view["data"] = _players_copy(declared, view["data"], mine)
        return view
    if declared.players == Copy.FIGHT and view["type"] == event.kind:
        view["data"] = _players_copy(declared, view["data"], mine)
    if view["type"] == event_kinds.TOKEN_REMOVED and not mine["was"]:
        view = {"seq": event.seq, "type": event_kinds.REDACTED}  # never in its view
    elif view["type"] != event_kinds.REDACTED and mine["unseen"]:
        view = _unseen(event, mine)
    entering = set(mine["enter"])
    enter = [token_for_players(t) for t in annotation["tokens"] if t["id"] in entering]
    if not enter and not mine["leave"]:
        return view
    change = {"enter": enter, "leave": mine["leave"]}
    if view["type"] == event_kinds.REDACTED:
        return {"seq": event.seq, "type": event_kinds.SIGHT_CHANGED, "data": change}
    view["data"] = {**view.get("data", {}), event_kinds.SIGHT: change}
    return view


def _unseen(event, mine: dict) -> dict:
    """What a group learns of an event about a token out of its view: that
    the token left its view (a token event), or nothing; of a thing on the
    map that went out of its sight (a drawing moved), its kind's `gone`."""
    declared = event_kinds.KINDS[event.kind]
    if declared.gone is not None and mine.get("left"):
        kind, data = declared.gone(event.data)
        return {"seq": event.seq, "type": kind, "data": data}
    if declared.sight == Sight.TOKEN and mine["was"]:
        return {
            "seq": event.seq,
            "type": event_kinds.TOKEN_REMOVED,
            "data": {"token_id": event.data["token"]["id"]},
        }
    return {"seq": event.seq, "type": event_kinds.REDACTED}


def _scene_for_players(data: dict, seen: set[int] | None = None) -> dict:
    """A scene change as players get it: its tokens but the hidden ones (a
    table's rows; a list logged before tables already holds no hidden one),
    and on a fog scene (`seen`) only those their group sees."""
    tokens = data["tokens"]
    if is_table(tokens):
        tokens = shown_rows(tokens, seen)
    elif seen is not None:
        tokens = [t for t in tokens if t["id"] in seen]
    return {**data, "tokens": tokens}


def _stamped(view: dict, event) -> dict:
    """The time the event was logged (ISO 8601, UTC), for whoever may see
    the event: the log shows it. A redacted entry carries no time."""
    if getattr(event, "created_at", None) is not None:
        view["at"] = event.created_at.isoformat()
    return view


# ------------------------------------------------------------------ an event's audience
#
# Who may see an event, and which version of it, is decided once, as it is
# appended (event_audience), from its kind's declaration, and stored with it:
# its `visibility`, and on a fog scene the annotation of what each sight
# group saw (vtt.fog.vision.annotate). Every reader (the live render, the
# snapshot and resync, replay, the journal) reads that decision (audience,
# event_view) and never decides again.


def event_audience(
    declared, data: Mapping, visibility: str, *, scene_id: int | None, room_scene_id: int | None
) -> str:
    """The visibility an event is stored with: the one asked for, but the
    GM's alone for an event about another scene than the room's, or about a
    hidden token (unless its players' version is the token going away)."""
    if scene_id is not None and scene_id != room_scene_id:
        return Visibility.GM
    if (
        declared.sight == Sight.TOKEN
        and data["token"]["hidden"]
        and declared.players != Copy.REMOVED
    ):
        return Visibility.GM
    return visibility


def audience(event) -> str:
    """Who sees an event in full, as decided when it was appended. A token
    event logged before the audience was stored kept a hidden token's event
    public: read as it is decided today."""
    declared = event_kinds.KINDS[event.kind]
    if (
        event.visibility == Visibility.PUBLIC
        and declared.sight == Sight.TOKEN
        and declared.players != Copy.REMOVED
        and event.data["token"]["hidden"]
    ):
        return Visibility.GM
    return event.visibility


def players_see(event) -> bool:
    """Whether players (outside fog) get the event as it was logged, or a
    version of it: not when it is the GM's, nor when it takes something out
    of their sight (a token hidden)."""
    declared = event_kinds.KINDS[event.kind]
    return audience(event) == Visibility.PUBLIC and declared.players != Copy.REMOVED
