"""Dice statistics (docs/dice.md, "Dice statistics"): the chi-square
test's numbers against the tables, the counts against the faces stored in
the log, the physical share, and a player's figures without the dice hidden
from them; the API and the page."""

from collections import Counter

import pytest
from django.test import Client
from rest_framework.test import APIClient

from vtt import dice
from vtt.records import dice_stats, draws
from vtt.records.dice_stats import chi_square_sf, fit
from vtt.tabletop.models import RoomEvent

from .played import play

# Chi-square critical values from the tables: (x, degrees of freedom, P(X >= x)).
TABLE = [
    (11.070, 5, 0.05),
    (15.086, 5, 0.01),
    (20.515, 5, 0.001),
    (1.145, 5, 0.95),
    (0.554, 5, 0.99),
    (3.841, 1, 0.05),
    (5.991, 2, 0.05),
    (7.815, 3, 0.05),
    (13.277, 4, 0.01),
    (18.307, 10, 0.05),
]


@pytest.mark.parametrize(("x", "df", "p"), TABLE)
def test_the_survival_function_matches_the_tables(x, df, p):
    assert chi_square_sf(x, df) == pytest.approx(p, rel=2e-3)


def test_nothing_beyond_expectation_is_certain_and_far_beyond_it_is_not():
    assert chi_square_sf(0, 5) == 1.0
    even = fit([10] * 6)
    assert even["chi_square"] == 0 and even["p"] == 1.0
    assert even["verdict"] == dice_stats.LOOK_FAIR
    sixes = fit([0, 0, 0, 0, 0, 60])
    assert sixes["chi_square"] == pytest.approx(300) and sixes["p"] < 1e-60
    assert sixes["verdict"] == dice_stats.UNEVEN


def test_the_words_follow_the_p_value_and_the_number_of_dice():
    assert fit([5, 5, 5, 5, 5, 4])["verdict"] == dice_stats.TOO_FEW  # 29 dice
    assert fit([0] * 6) == {**fit([0] * 6), "dice": 0, "p": None, "verdict": dice_stats.TOO_FEW}
    # chi-square 13.8 on 60 dice: p = 0.017
    chancy = fit([20, 5, 10, 10, 8, 7])
    assert chancy["chi_square"] == pytest.approx(13.8)
    assert 0.01 < chancy["p"] < 0.05 and chancy["verdict"] == dice_stats.A_LITTLE_UNEVEN
    assert fit([12, 8, 10, 10, 10, 10])["verdict"] == dice_stats.LOOK_FAIR
    assert fit([22, 3, 10, 10, 10, 5])["verdict"] == dice_stats.UNEVEN  # p = 0.0006


@pytest.fixture
def played(db):
    return play()


def stored_faces(physical: bool) -> Counter:
    """Every face of every throw as the log stores it, each throw once."""
    faces, seen = Counter(), set()
    for event in RoomEvent.objects.filter(kind__in=draws.THROWING).order_by("seq"):
        for throw in draws.throws(event.kind, event.data):
            if (throw["session"], throw["roll"]) not in seen and throw["physical"] == physical:
                seen.add((throw["session"], throw["roll"]))
                faces.update(throw["faces"])
    return faces


def counts(fitted) -> Counter:
    return Counter({int(face): n for face, n in fitted["counts"].items() if n})


def stats_of(played, who: str, **query) -> dict:
    client = APIClient()
    client.force_login(played.battle.users[who])
    answer = client.get(f"/api/campaigns/{played.battle.campaign.pk}/dice-stats/", query)
    assert answer.status_code == 200, answer.json()
    return answer.json()


def by_name(groups, name) -> dict:
    [group] = [g for g in groups if g["name"] == name]
    return group


def test_the_gms_counts_are_the_faces_stored(played):
    stats = stats_of(played, "gm")
    everyone = stats["everyone"]
    assert counts(everyone["dice"]) == stored_faces(physical=False)
    assert counts(everyone["physical"]) == stored_faces(physical=True)
    # Five rolls, three initiatives, one attack: two of them on physical dice.
    assert everyone["throws"] == 9 and everyone["physical_throws"] == 2
    assert everyone["physical_share"] == pytest.approx(2 / 9)
    assert everyone["physical"]["dice"] == 3 + 15
    # Tenrec: the public roll, the attack (physical), the initiative.
    tenrec = by_name(stats["characters"], "Tenrec")
    assert tenrec["throws"] == 3 and tenrec["physical_throws"] == 1
    assert tenrec["physical_share"] == pytest.approx(1 / 3)
    player = by_name(stats["players"], "artifice-player")
    assert player["throws"] == 4  # public, blind, physical, the attack
    gm = by_name(stats["players"], "artifice-gm")
    assert gm["throws"] == 4  # the GM-only roll and the three initiatives


def test_a_player_counts_only_the_dice_they_saw(played):
    other = stats_of(played, "other")["everyone"]
    hidden = {played.blind.pk, played.gm_only.pk}
    hidden_dice = sum(len(r.result["dice"]) for r in (played.blind, played.gm_only))
    gm = stats_of(played, "gm")["everyone"]
    assert other["throws"] == gm["throws"] - len(hidden)
    assert other["dice"]["dice"] == gm["dice"]["dice"] - hidden_dice
    gm_for_other = by_name(stats_of(played, "other")["players"], "artifice-gm")
    assert gm_for_other["throws"] == 3  # the initiatives, not the GM-only roll
    # The blind roll's roller sees its announcement, never its dice.
    roller = stats_of(played, "player")
    assert by_name(roller["players"], "artifice-player")["throws"] == 3
    # The other player's roll for themselves: not a die of it reaches them.
    assert "artifice-other" not in [g["name"] for g in roller["players"]]
    assert roller["everyone"]["throws"] == gm["throws"] - 3


def test_one_sessions_dice(played):
    battle = played.battle
    dice.roll_adjudicate(
        campaign_id=battle.campaign.pk,
        by=battle.users["other"],
        request={"system": "artifice", "action": "check", "pool": 2, "difficulty": 1},
    )
    second = stats_of(played, "gm", session="2")
    assert second["session"] == 2 and second["everyone"]["throws"] == 1
    assert [g["name"] for g in second["players"]] == ["artifice-other"]
    assert stats_of(played, "gm")["everyone"]["throws"] == 10


def test_bad_filters_and_strangers(played):
    client = APIClient()
    client.force_login(played.battle.users["player"])
    url = f"/api/campaigns/{played.battle.campaign.pk}/dice-stats/"
    bad = client.get(url, {"session": "one"})
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "session"
    assert client.get(url, {"session": "5"}).status_code == 404
    stranger = APIClient()
    stranger.force_login(played.battle.users["stranger"])
    assert stranger.get(url).status_code == 404


def test_the_page_draws_a_bar_per_face_and_is_linked(played):
    client = Client()
    client.force_login(played.battle.users["player"])
    campaign_id = played.battle.campaign.pk
    page = client.get(f"/campaigns/{campaign_id}/dice/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="dice-expected"') >= 6 * 3  # everyone, a player, a character
    assert 'data-name="Tenrec"' in html and "Physical dice" in html
    assert client.get(f"/campaigns/{campaign_id}/dice/?session=1").status_code == 200
    assert client.get(f"/campaigns/{campaign_id}/dice/?session=9").status_code == 404
    assert client.get(f"/campaigns/{campaign_id}/dice/?session=x").status_code == 404
    sessions_page = client.get(f"/campaigns/{campaign_id}/sessions/").content.decode()
    assert f'href="/campaigns/{campaign_id}/dice/"' in sessions_page
    stranger = Client()
    stranger.force_login(played.battle.users["stranger"])
    assert stranger.get(f"/campaigns/{campaign_id}/dice/").status_code == 404
