"""The lobby's import, in two steps: the archive is uploaded and judged,
then the importer names the copy (by default "<name> (imported <date>)")
and chooses which of the archive's members to keep, each as an account of
this server (by default only the importer). Who may import and how often
are settings; every refusal names its problem and stores nothing."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from vtt.tabletop.models import Campaign, Character, Membership

from .campaign import rich_campaign
from .test_refusals import database
from .test_web import download, upload

pytestmark = pytest.mark.django_db
CONFIRM = "web:campaign_import_confirm"


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def battle():
    return rich_campaign()


@pytest.fixture
def staged(battle):
    """The GM's upload of the campaign's own backup: (client, review page)."""
    client = Client()
    client.force_login(battle.users["gm"])
    review = upload(battle.users["gm"], download(battle, "gm").content, client=client)
    assert review.status_code == 200
    return client, review


def fields_of(review, **changes) -> dict:
    form = review.context["form"]
    values = {name: form[name].value() or "" for name in form.fields}
    return {**values, **changes}


def member_field(review, username: str) -> str:
    form = review.context["form"]
    return next(form.field_of(m) for m in form.members if m.username == username)


def copies(battle):
    return Campaign.objects.exclude(pk=battle.campaign.pk)


def test_the_review_lists_the_archives_members_and_proposes_a_distinct_name(staged):
    _client, review = staged
    page = review.content.decode()
    today = timezone.localdate().isoformat()
    assert f'value="The Tomb (imported {today})"' in page
    for name in ("artifice-gm", "artifice-player", "artifice-observer", "artifice-other"):
        assert name in page
    # Only the importer is kept unless the GM says otherwise.
    kept = {
        m.username: review.context["form"][f"member_{m.id}"].value()
        for m in review.context["form"].members
    }
    assert kept["artifice-gm"] == "artifice-gm"
    assert not any(kept[name] for name in kept if name != "artifice-gm")


def test_the_gm_renames_the_copy_and_keeps_a_member_as_an_account_here(battle, staged):
    client, review = staged
    player, other = battle.users["player"], battle.users["other"]
    data = fields_of(
        review,
        name="The Tomb, second try",
        **{member_field(review, "artifice-player"): other.username},
    )
    answer = client.post(reverse(CONFIRM), data)
    assert answer.status_code == 302
    copy = copies(battle).get()
    assert copy.name == "The Tomb, second try"
    roles = dict(Membership.objects.filter(campaign=copy).values_list("user__username", "role"))
    assert roles == {"artifice-gm": "gm", other.username: "player"}
    # The player's character came along as the account that took their place.
    tenrec = Character.objects.get(campaign=copy, name="Tenrec")
    assert tenrec.owner_id == other.pk
    assert not Membership.objects.filter(campaign=copy, user=player).exists()
    # The original keeps its name and its people.
    battle.campaign.refresh_from_db()
    assert battle.campaign.name == "The Tomb"


@pytest.mark.parametrize(
    "change, field, says",
    [
        ({"name": ""}, "name", "This field is required"),
        ({"player": "nobody-at-all"}, "player", "there is no user 'nobody-at-all' here"),
        ({"player": "artifice-gm"}, "player", "artifice-gm already takes artifice-gm's place"),
    ],
)
def test_a_bad_choice_reshows_the_review_with_a_field_error_and_stores_nothing(
    battle, staged, change, field, says
):
    client, review = staged
    changes = dict(change)
    if "player" in changes:
        changes[member_field(review, "artifice-player")] = changes.pop("player")
        field = member_field(review, "artifice-player")
    before = database()
    answer = client.post(reverse(CONFIRM), fields_of(review, **changes))
    assert answer.status_code == 400
    assert says in " ".join(answer.context["form"].errors[field])
    assert database() == before
    # The archive is still there: the GM corrects the form and imports.
    assert client.post(reverse(CONFIRM), fields_of(review)).status_code == 302


def test_the_importer_runs_the_copy_whatever_the_mapping(battle, staged):
    client, review = staged
    # The importer's own place given to nobody is fine: they join as GM anyway.
    data = fields_of(review, **{member_field(review, "artifice-gm"): ""})
    assert client.post(reverse(CONFIRM), data).status_code == 302
    copy = copies(battle).get()
    assert list(Membership.objects.filter(campaign=copy).values_list("role", flat=True)) == ["gm"]


def test_a_confirm_without_an_upload_is_refused(battle):
    client = Client()
    client.force_login(battle.users["gm"])
    answer = client.post(reverse(CONFIRM), {"name": "Anything"})
    assert answer.status_code == 400
    assert "upload it again" in answer.context["import_form"].errors["archive"][0]
    assert not copies(battle).exists()


def test_a_staged_archive_is_the_uploaders_alone(battle, staged):
    """Another session, even the same GM's, has no upload waiting."""
    _client, review = staged
    other = Client()
    other.force_login(battle.users["gm"])
    answer = other.post(reverse(CONFIRM), fields_of(review))
    assert answer.status_code == 400
    assert not copies(battle).exists()


def test_the_command_refuses_a_campaign_left_without_a_gm(battle, tmp_path):
    path = tmp_path / "tomb.zip"
    path.write_bytes(download(battle, "gm").content)
    before = database()
    with pytest.raises(CommandError) as refused:
        call_command("import_campaign", str(path), "--member", "artifice-player=artifice-other")
    assert refused.value.returncode == 2
    assert "would have no GM" in str(refused.value)
    assert database() == before


def test_by_default_players_may_not_import(battle):
    data = download(battle, "gm").content
    before = database()
    answer = upload(battle.users["player"], data)
    assert answer.status_code == 403
    assert "only GMs may import" in answer.context["import_form"].errors["archive"][0]
    assert database() == before


def test_who_may_import_is_a_setting(battle, settings):
    data = download(battle, "gm").content
    settings.CAMPAIGN_IMPORT_BY = "staff"
    assert upload(battle.users["gm"], data).status_code == 403
    staff = get_user_model().objects.create_user("staffer", is_staff=True)
    assert upload(staff, data).status_code == 200
    settings.CAMPAIGN_IMPORT_BY = "everyone"
    assert upload(battle.users["player"], data).status_code == 200


def test_uploads_are_rate_limited_per_user(battle, settings):
    settings.CAMPAIGN_IMPORTS_PER_HOUR = 2
    data = download(battle, "gm").content
    gm = battle.users["gm"]
    assert upload(gm, b"not a zip").status_code == 400  # refused uploads count too
    assert upload(gm, data).status_code == 200
    answer = upload(gm, data)
    assert answer.status_code == 429
    assert int(answer["Retry-After"]) > 0
    assert "2 archives an hour at most" in answer.context["import_form"].errors["archive"][0]
    # Someone else's uploads are theirs to count.
    settings.CAMPAIGN_IMPORT_BY = "everyone"
    assert upload(battle.users["player"], data).status_code == 200
