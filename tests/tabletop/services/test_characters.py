import pytest

from vtt.tabletop import services
from vtt.tabletop.models import Character, RoomEvent

from ..helpers import events_after, last_seq

pytestmark = pytest.mark.django_db


def test_a_player_creates_their_own_pc(table):
    seq = last_seq(table.campaign)
    character = services.character_create(
        campaign_id=table.campaign.pk, by=table.player, name="Ilsa", sheet={"level": 1}
    )
    assert character.owner == table.player and character.kind == "pc"
    assert character.resources == {"experience": 0, "condition": "Healthy"}
    [event] = events_after(table.campaign, seq)
    assert (event.kind, event.visibility) == ("character.created", "public")
    assert "gm_notes" not in event.data["character"]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"kind": "npc"}, "kind"),
        ({"owner_id": "other"}, "owner_id"),
        ({"resources": {"experience": 10}}, "resources"),
        ({"gm_notes": "secret"}, "gm_notes"),
    ],
)
def test_what_a_player_may_not_create(table, kwargs, field):
    if kwargs.get("owner_id") == "other":
        kwargs = {"owner_id": table.other.pk}
    count = Character.objects.count()
    with pytest.raises(services.NotAllowed) as caught:
        services.character_create(
            campaign_id=table.campaign.pk, by=table.player, name="X", **kwargs
        )
    assert caught.value.field == field
    assert Character.objects.count() == count


def test_observers_and_outsiders_create_nothing(table):
    with pytest.raises(services.NotAllowed):
        services.character_create(campaign_id=table.campaign.pk, by=table.observer, name="X")
    with pytest.raises(services.NotFound):
        services.character_create(campaign_id=table.campaign.pk, by=table.outsider, name="X")


def test_gm_creates_npcs_and_pcs_for_players(table):
    npc = services.character_create(
        campaign_id=table.campaign.pk,
        by=table.gm,
        name="Ghoul",
        kind="npc",
        resources={"condition": "Hurt"},
        gm_notes="weak to fire",
    )
    assert npc.owner is None and npc.gm_notes == "weak to fire"
    assert RoomEvent.objects.filter(kind="character.created").last().visibility == "gm"
    pc = services.character_create(
        campaign_id=table.campaign.pk, by=table.gm, name="Mira", owner_id=table.other.pk
    )
    assert pc.owner == table.other
    with pytest.raises(services.ServiceError) as caught:
        services.character_create(
            campaign_id=table.campaign.pk, by=table.gm, name="Eye", owner_id=table.observer.pk
        )
    assert caught.value.field == "owner_id"


def test_malformed_sheet_writes_nothing(table):
    seq = last_seq(table.campaign)
    with pytest.raises(services.ServiceError) as caught:
        services.character_update(
            character_id=table.tenrec.pk,
            by=table.player,
            name="Tenrec the Bold",
            sheet={"abilities": {"Might": {"dice": 9}}},
        )
    assert caught.value.field == "sheet.abilities.Might.dice"
    table.tenrec.refresh_from_db()
    assert table.tenrec.name == "Tenrec"
    assert last_seq(table.campaign) == seq


def test_players_edit_only_their_own(table):
    services.character_update(character_id=table.tenrec.pk, by=table.player, name="Tenrec the Bold")
    with pytest.raises(services.NotAllowed):
        services.character_update(character_id=table.kobor.pk, by=table.player, name="Mud")
    with pytest.raises(services.NotAllowed):
        services.character_update(character_id=table.tenrec.pk, by=table.observer, name="Mud")
    for field, value in (("gm_notes", "x"), ("resources", {"experience": 99}), ("owner_id", None)):
        with pytest.raises(services.NotAllowed) as caught:
            services.character_update(
                character_id=table.tenrec.pk, by=table.player, **{field: value}
            )
        assert caught.value.field == field
    # NPCs do not exist for players.
    with pytest.raises(services.NotFound):
        services.character_update(character_id=table.zombie.pk, by=table.player, name="Bob")
    with pytest.raises(services.ServiceError) as caught:
        services.character_update(character_id=table.tenrec.pk, by=table.player, colour="red")
    assert caught.value.code == "unknown_field"


def test_gm_notes_change_tells_the_room_nothing(table):
    seq = last_seq(table.campaign)
    services.character_update(character_id=table.tenrec.pk, by=table.gm, gm_notes="cursed")
    assert events_after(table.campaign, seq) == []
    services.character_update(
        character_id=table.tenrec.pk, by=table.gm, resources={"experience": 3}
    )
    [event] = events_after(table.campaign, seq)
    assert event.data["character"]["resources"] == {"experience": 3, "condition": "Healthy"}
    assert "cursed" not in str(event.data)


def test_a_pc_made_npc_leaves_the_players_view(table):
    seq = last_seq(table.campaign)
    services.character_update(character_id=table.kobor.pk, by=table.gm, kind="npc")
    events = events_after(table.campaign, seq)
    assert [(e.kind, e.visibility) for e in events] == [
        ("character.removed", "public"),
        ("character.updated", "gm"),
    ]


def test_delete(table):
    with pytest.raises(services.NotAllowed):
        services.character_delete(character_id=table.tenrec.pk, by=table.other)
    seq = last_seq(table.campaign)
    services.character_delete(character_id=table.tenrec.pk, by=table.player)
    assert not Character.objects.filter(pk=table.tenrec.pk).exists()
    [event] = events_after(table.campaign, seq)
    assert event.kind == "character.deleted" and event.data["character"]["name"] == "Tenrec"
    table.tenrec_token.refresh_from_db()
    assert table.tenrec_token.character is None
