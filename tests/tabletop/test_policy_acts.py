"""The policy's answers to "who may act", and the capability set the room
page is served: its scopes must give the same answer as the rules they
stand for, for every role, or the page would offer what the service
refuses (or hide what it allows)."""

import pytest

from vtt.tabletop import policy
from vtt.tabletop.models import Character, Membership, Role
from vtt.tabletop.visibility import Viewer

ME, OTHER = 5, 6
ROLES = [Role.GM, Role.PLAYER, Role.OBSERVER]


def _character(kind=Character.Kind.PC, owner_id=ME) -> Character:
    return Character(kind=kind, owner_id=owner_id, name="Tenrec")


def _token_reach(scope: str, token: dict) -> bool:
    """The page's reading of the `tokens` scope (static/js/room/may.js)."""
    return scope == "any" or (scope == "controlled" and ME in token["controllers"])


def _character_reach(scope: str, character: Character) -> bool:
    """The page's reading of the `characters` scope (static/js/room/may.js)."""
    return scope == "any" or (scope == "own" and character.owner_id == ME)


@pytest.mark.parametrize("role", ROLES)
def test_the_token_scope_is_controls_token(role):
    viewer = Viewer(ME, role)
    scope = policy.capabilities(viewer)["tokens"]
    for token in ({"controllers": [ME]}, {"controllers": [OTHER]}, {"controllers": []}):
        assert _token_reach(scope, token) == policy.controls_token(viewer, token)


@pytest.mark.parametrize("role", ROLES)
def test_the_character_scope_is_may_edit_character(role):
    viewer = Viewer(ME, role)
    scope = policy.capabilities(viewer)["characters"]
    for character in (_character(), _character(owner_id=OTHER), _character(owner_id=None)):
        assert _character_reach(scope, character) == policy.may_edit_character(viewer, character)
        # What a page holds for a player is player characters: rolling for
        # them is the same answer.
        assert _character_reach(scope, character) == policy.may_roll_for(viewer, character)


def test_what_each_role_is_offered():
    gm, player, observer = (policy.capabilities(Viewer(ME, r)) for r in ROLES)
    assert gm == {
        "runs_table": True,
        "takes_part": True,
        "places_tokens": "always",
        "opens_doors": "always",
        "tokens": "any",
        "characters": "any",
        "pings": True,
        "pulls_view": True,
        "markers": "any",
        "templates": "any",
        "draws": "always",
        "gm_drawings": True,
    }
    assert player == {
        "runs_table": False,
        "takes_part": True,
        "places_tokens": "with_setting",
        "opens_doors": "with_setting",
        "tokens": "controlled",
        "characters": "own",
        "pings": True,
        "pulls_view": False,
        "markers": "conditions",
        "templates": "public",
        "draws": "with_setting",
        "gm_drawings": False,
    }
    assert observer == {
        "runs_table": False,
        "takes_part": False,
        "places_tokens": "never",
        "opens_doors": "never",
        "tokens": "none",
        "characters": "none",
        "pings": False,
        "pulls_view": False,
        "markers": "none",
        "templates": "none",
        "draws": "never",
        "gm_drawings": False,
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("on", [True, False])
def test_placing_and_doors_follow_the_setting_as_policy_does(role, on):
    viewer = Viewer(ME, role)
    served = policy.capabilities(viewer)
    for key, setting, decides in (
        ("places_tokens", "players_place_tokens", policy.places_tokens),
        ("opens_doors", "players_open_doors", policy.opens_doors),
    ):
        offered = served[key] == "always" or (served[key] == "with_setting" and on)
        assert offered == decides(viewer, {setting: on})


def test_a_membership_is_asked_as_a_viewer_is():
    member = Membership(user_id=ME, role=Role.PLAYER)
    assert not policy.runs_table(member)
    assert policy.takes_part(member)
    assert policy.may_edit_character(member, _character())
    assert policy.capabilities(member) == policy.capabilities(Viewer(ME, Role.PLAYER))


def test_an_observer_who_owns_a_character_does_nothing_with_it():
    observer = Viewer(ME, Role.OBSERVER)
    character = _character()
    assert policy.owns_character(observer, character)
    assert not policy.may_edit_character(observer, character)
    assert not policy.may_roll_for(observer, character)


def test_a_player_does_not_roll_for_an_npc_handed_to_them():
    player = Viewer(ME, Role.PLAYER)
    npc = _character(kind=Character.Kind.NPC)
    assert not policy.may_roll_for(player, npc)
    assert policy.may_roll_for(Viewer(OTHER, Role.GM), npc)


def test_sight_groups_by_role():
    assert policy.sight_groups(Viewer(ME, Role.GM)) is None
    assert policy.sight_groups(Viewer(ME, Role.PLAYER)) == {"shared": "party", "own": f"u{ME}"}
    assert policy.sight_groups(Viewer(ME, Role.OBSERVER)) == {"shared": "party", "own": "party"}


@pytest.mark.parametrize(
    ("role", "key"),
    [(Role.GM, "gm"), (Role.PLAYER, "@u5"), (Role.OBSERVER, "@party")],
)
def test_the_render_a_viewer_reads(role, key):
    viewer = Viewer(ME, role, "u5" if role == Role.PLAYER else "party")
    assert policy.sight_key(viewer) == key


@pytest.mark.parametrize("role", ROLES)
def test_the_markers_reach_is_may_mark_tokens(role):
    """What the page offers for markers is what may_mark_token answers, on
    a token the member controls and on one they do not."""
    viewer = Viewer(ME, role)
    reach = policy.capabilities(viewer)["markers"]
    mine, theirs = {"controllers": [ME]}, {"controllers": []}
    for condition in (True, False):
        for gm_only in (True, False):
            on_mine = policy.may_mark_token(viewer, mine, condition=condition, gm_only=gm_only)
            on_theirs = policy.may_mark_token(viewer, theirs, condition=condition, gm_only=gm_only)
            assert on_mine == (
                reach == "any" or (reach == "conditions" and condition and not gm_only)
            )
            assert on_theirs == (reach == "any")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("setting", ["everyone", "gm"])
def test_drawing_follows_the_setting_as_policy_does(role, setting):
    viewer = Viewer(ME, role)
    served = policy.capabilities(viewer)
    shared = policy.may_draw(viewer, {"drawing": setting}, "shared")
    offered = {"always": True, "never": False, "with_setting": setting == "everyone"}
    assert offered[served["draws"]] == shared
    assert served["gm_drawings"] == policy.may_draw(viewer, {"drawing": setting}, "gm")
