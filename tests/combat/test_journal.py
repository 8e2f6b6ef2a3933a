"""A session's journal (docs/journal.md): its words for rolls, attacks and
wounds, turns and rounds, chat; the GM's with the hidden rolls, a player's
exactly what they saw; the Markdown over the API and the printable page,
where text people typed stays text."""

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from vtt import dice
from vtt.records import journal
from vtt.records.journal import md
from vtt.tabletop import policy, services
from vtt.tabletop.models import PlaySession, RoomEvent
from vtt.tabletop.policy import PLAYERS

from .played import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(db):
    return play()


def api(played, who: str) -> APIClient:
    client = APIClient()
    client.force_login(played.battle.users[who])
    return client


def browser(played, who: str) -> Client:
    client = Client()
    client.force_login(played.battle.users[who])
    return client


def journal_url(played, number=1) -> str:
    return f"/api/campaigns/{played.battle.campaign.pk}/sessions/{number}/journal/"


def page_url(played, number=1) -> str:
    return f"/campaigns/{played.battle.campaign.pk}/sessions/{number}/journal/"


def sentence(roll) -> str:
    return RoomEvent.objects.get(kind="roll", data__roll_id=roll.pk).data["sentence"]


def test_the_gms_markdown_has_every_roll_the_fight_and_the_chat(played):
    answer = api(played, "gm").get(journal_url(played))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/markdown; charset=utf-8"
    text = answer.content.decode()
    assert text.startswith("# Session 1 of The Tomb\n")
    for roll in (played.public, played.blind, played.gm_only, played.own, played.physical):
        assert md(sentence(roll)) in text
    lines = text.splitlines()

    def line_of(words: str) -> str:
        [line] = [line for line in lines if words in line]
        return line

    assert "_(GM only)_" in line_of(md(sentence(played.gm_only)))
    assert "_(blind roll: the GM only)_" in line_of(md(sentence(played.blind)))
    assert "_(physical dice)_" in line_of(md(sentence(played.physical)))
    faces = " ".join(str(d["face"]) for d in played.public.result["dice"])
    assert f"Dice: {faces}." in line_of(md(sentence(played.public)))
    # The attack with its wound, the turns and the new round, the chat.
    assert "Zombie is Wounded" in text and "condition Healthy → Wounded" in text
    assert "Initiative: Tenrec" in text
    # Initiative is thrown: who goes first varies, the rounds do not.
    turns = re.findall(r"Round (\d): (Tenrec|Zombie|Kobor)'s turn\.", text)
    assert [r for r, _ in turns] == ["1", "1", "1", "2"] and turns[0][1] == turns[3][1]
    assert "The encounter ended in round 2." in text
    assert "whispered to" in text  # the whisper was to the GM
    assert "Session 1 began" in text and "Session 1 ended" in text


def test_a_players_journal_is_what_they_saw(played):
    text = api(played, "other").get(journal_url(played)).content.decode()
    assert md(sentence(played.public)) in text
    assert md(sentence(played.own)) in text  # their own roll for themselves
    for hidden in (played.blind, played.gm_only):
        assert md(sentence(hidden)) not in text
    assert "GM only" not in text and "whispered" not in text  # not theirs
    roller = api(played, "player").get(journal_url(played)).content.decode()
    assert "made a blind roll: only the GM sees how it went." in roller
    assert md(sentence(played.blind)) not in roller and md(sentence(played.own)) not in roller
    assert "whispered to" in roller  # their own whisper
    # Every entry a player's journal has, their log had, in the same order.
    seqs = [int(s) for s in re.findall(r"\(#(\d+)\)", roller)]
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))


def test_chat_markup_stays_text_in_markdown(played):
    text = api(played, "gm").get(journal_url(played)).content.decode()
    [line] = [line for line in text.splitlines() if "alert" in line]
    assert "<script>" not in line and "**loud**" not in line and "[link](" not in line
    assert r"\<script\>" in line and r"\*\*loud\*\*" in line and r"\[link\]" in line
    assert r"\# not a heading" in line


def test_chat_markup_stays_text_on_the_page(played):
    page = browser(played, "player").get(page_url(played))
    assert page.status_code == 200
    html = page.content.decode()
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; **loud**" in html
    assert 'id="journal-print"' in html and 'class="printable"' in html
    assert journal_url(played) in html  # the Markdown link


def test_md_escapes_what_would_start_markup():
    assert md("# title") == r"\# title"
    assert md("- item") == r"\- item"
    assert md("1. first") == r"1\. first"
    assert md("a & b <i>") == r"a \& b \<i\>"
    assert md("one\n===") == "one\\\n  \\===", "a line break that cannot make a heading"
    assert md("plain words, (2) and 3D") == "plain words, (2) and 3D"


def test_an_open_session_runs_to_now_and_the_next_starts_fresh(played):
    battle = played.battle
    dice.roll_adjudicate(
        campaign_id=battle.campaign.pk,
        by=battle.users["player"],
        request={"system": "artifice", "action": "check", "pool": 2, "difficulty": 1},
    )
    second = api(played, "gm").get(journal_url(played, 2)).content.decode()
    assert "still open." in second and "Session 2 began" in second
    assert "ended" not in second.splitlines()[2] and "Tenrec hits" not in second
    first = api(played, "gm").get(journal_url(played, 1)).content.decode()
    assert "Session 2" not in first


def test_the_journal_reads_the_log_through_the_policy(played):
    session = PlaySession.objects.get(campaign=played.battle.campaign)
    written = journal.journal(session, PLAYERS)
    assert not written.gm and all("GM only" not in e.notes for e in written.entries)


def test_unknown_sessions_and_strangers_find_nothing(played):
    assert api(played, "gm").get(journal_url(played, 7)).status_code == 404
    assert browser(played, "gm").get(page_url(played, 7)).status_code == 404
    assert api(played, "stranger").get(journal_url(played)).status_code == 404
    assert browser(played, "stranger").get(page_url(played)).status_code == 404
    assert APIClient().get(journal_url(played)).status_code in (401, 403)


def test_the_markdown_may_be_asked_for_by_name(played):
    asked = api(played, "player").get(journal_url(played), HTTP_ACCEPT="text/markdown")
    assert asked.status_code == 200 and asked.content.startswith(b"# Session 1")
    missing = api(played, "player").get(journal_url(played, 9), HTTP_ACCEPT="text/markdown")
    assert missing.status_code == 404 and b"no such session" in missing.content


def test_the_gm_console_and_the_sessions_page_link_the_journal(played):
    campaign_id = played.battle.campaign.pk
    console = browser(played, "gm").get(f"/campaigns/{campaign_id}/gm/").content.decode()
    assert f'href="{page_url(played)}"' in console
    listed = browser(played, "player").get(f"/campaigns/{campaign_id}/sessions/").content.decode()
    assert f'href="{page_url(played)}"' in listed


def test_a_players_journal_of_a_fight_in_the_dark_names_nobody_they_did_not_see(db):
    """The zombie fights from beyond the wall on a fog scene: the player's
    journal has no word of it, its turn is a turn out of sight, and its
    initiative roll (alone in its entry) is no entry at all."""
    from vtt.combat.services import encounters

    from .battle import make_battle

    battle = make_battle("artifice")
    gm, player = battle.users["gm"], battle.users["player"]
    services.token_move(token_id=battle.tokens["zombie"].pk, by=gm, x=20, y=4)
    services.scene_update(scene_id=battle.scene.pk, by=gm, fog=True)
    fight = encounters.encounter_start(scene_id=battle.scene.pk, by=gm)
    zombie = fight.combatants.get(token=battle.tokens["zombie"])
    encounters.encounter_roll_initiative(encounter_id=fight.pk, by=gm, combatants=[zombie.pk])
    encounters.encounter_set_initiative(
        encounter_id=fight.pk, by=gm, combatant_id=zombie.pk, initiative=99
    )
    encounters.encounter_next(encounter_id=fight.pk, by=gm)
    session = PlaySession.objects.get(campaign=battle.campaign)
    viewer = policy.viewer_in(player.pk, "player", battle.campaign.settings)
    text = journal.journal(session, viewer).markdown()
    assert "Zombie" not in text and "Initiative:" not in text
    assert "Round 1: a turn out of sight." in text
    assert "An encounter began: Tenrec, Kobor." in text
    gm_text = journal.journal(session, policy.viewer_in(gm.pk, "gm", {})).markdown()
    assert "Round 1: Zombie's turn." in gm_text and "Initiative: Zombie" in gm_text
