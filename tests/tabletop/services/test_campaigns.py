import pytest

from vtt.tabletop import services
from vtt.tabletop.models import Campaign, Membership, Role

from ..helpers import events_after, kinds_after, last_seq
from ..table import make_user

pytestmark = pytest.mark.django_db


def test_the_creator_becomes_gm_and_settings_get_defaults():
    owner = make_user("owner")
    campaign = services.campaign_create(owner=owner, name=" Night Run ", game="rd6")
    assert campaign.name == "Night Run"
    assert campaign.settings["complication"] == "cancel_highest"
    assert Membership.objects.get(campaign=campaign).role == Role.GM


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"name": "", "game": "rd6"}, "name"),
        ({"name": "x" * 121, "game": "rd6"}, "name"),
        ({"name": "X", "game": "d20"}, "game"),
        ({"name": "X", "game": "rd6", "settings": {"diagonal": "hex"}}, "settings.diagonal"),
    ],
)
def test_bad_campaigns_are_refused_and_nothing_is_written(kwargs, field):
    owner = make_user("owner")
    with pytest.raises(services.ServiceError) as caught:
        services.campaign_create(owner=owner, **kwargs)
    assert caught.value.field == field
    assert not Campaign.objects.exists() and not Membership.objects.exists()


def test_only_the_gm_changes_settings(table):
    for user, error in ((table.player, services.NotAllowed), (table.outsider, services.NotFound)):
        with pytest.raises(error):
            services.campaign_update_settings(
                campaign_id=table.campaign.pk, by=user, settings={"diagonal": "alternating"}
            )
    seq = last_seq(table.campaign)
    campaign = services.campaign_update_settings(
        campaign_id=table.campaign.pk, by=table.gm, settings={"diagonal": "alternating"}
    )
    assert campaign.settings["diagonal"] == "alternating"
    assert campaign.settings["condition_track"][0] == "Healthy"
    [event] = events_after(table.campaign, seq)
    assert event.kind == "campaign.updated"
    assert event.data["campaign"]["settings"]["diagonal"] == "alternating"


def test_renamed_abilities_and_conditions_carry_over_to_the_sheets(table):
    services.character_update(
        character_id=table.tenrec.pk, by=table.gm, resources={"condition": "Hurt"}
    )
    abilities = {
        "Strength": ["Brawn", "Toughness", "Endurance"],
        "Dexterity": ["Finesse", "Agility", "Stealth"],
        "Intelligence": ["Arcanum", "Lore", "Perception"],
        "Will Power": ["Resolve", "Presence", "Faith"],
    }
    track = ["Fine", "Bruised", "Injured", "Wounded", "Critical", "Down", "Dead"]
    seq = last_seq(table.campaign)
    services.campaign_update_settings(
        campaign_id=table.campaign.pk,
        by=table.gm,
        settings={"abilities": abilities, "condition_track": track},
    )
    table.tenrec.refresh_from_db()
    assert table.tenrec.sheet["abilities"]["Brawn"] == {"dice": 2, "kind": "class", "pips": 1}
    assert "Might" not in table.tenrec.sheet["abilities"]
    assert table.tenrec.resources["condition"] == "Bruised"
    table.zombie.refresh_from_db()
    assert table.zombie.resources["condition"] == "Fine"
    events = events_after(table.campaign, seq)
    assert events[0].kind == "campaign.updated"
    # The zombie's change reaches the GM only.
    visibility = {e.data["character"]["name"]: e.visibility for e in events[1:]}
    assert visibility == {"Kobor": "public", "Tenrec": "public", "Zombie": "gm"}


def test_a_shorter_track_may_not_drop_a_condition_in_use(table):
    services.character_update(
        character_id=table.kobor.pk, by=table.gm, resources={"condition": "Critical"}
    )
    before = Campaign.objects.get(pk=table.campaign.pk).settings
    with pytest.raises(services.ServiceError) as caught:
        services.campaign_update_settings(
            campaign_id=table.campaign.pk,
            by=table.gm,
            settings={"condition_track": ["Healthy", "Hurt", "Dead"]},
        )
    assert caught.value.field == "settings.condition_track"
    assert "Kobor" in caught.value.message
    assert Campaign.objects.get(pk=table.campaign.pk).settings == before


def test_rename_and_delete(table):
    seq = last_seq(table.campaign)
    services.campaign_update(campaign_id=table.campaign.pk, by=table.gm, name="The Crypt")
    assert kinds_after(table.campaign, seq) == ["campaign.updated"]
    with pytest.raises(services.NotAllowed):
        services.campaign_delete(campaign_id=table.campaign.pk, by=table.player)
    services.campaign_delete(campaign_id=table.campaign.pk, by=table.gm)
    assert not Campaign.objects.filter(pk=table.campaign.pk).exists()
