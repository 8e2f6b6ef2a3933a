"""Failed log-ins on POST /api/auth/token/ are limited per account and
address and per address, in the database every worker reads; the client's
address comes from X-Forwarded-For only behind a trusted proxy."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from vtt.accounts.client_address import trusted_proxies
from vtt.accounts.models import LoginFailure

pytestmark = pytest.mark.django_db

STRANGER = "203.0.113.5"
PLAYER_HOME = "198.51.100.20"
NGINX = "10.0.0.2"
PASSWORD = "pw-player-12345"
PER_ACCOUNT = 3
PER_ADDRESS = 6
COOL_OFF = 15
PER_ACCOUNT_EVERYWHERE = 8
ACCOUNT_COOL_OFF = 5


@pytest.fixture(autouse=True)
def limits(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = PER_ACCOUNT
    settings.LOGIN_FAILURES_PER_ADDRESS = PER_ADDRESS
    settings.LOGIN_COOL_OFF_MINUTES = COOL_OFF
    settings.LOGIN_FAILURES_PER_ACCOUNT = PER_ACCOUNT_EVERYWHERE
    settings.LOGIN_ACCOUNT_COOL_OFF_MINUTES = ACCOUNT_COOL_OFF
    settings.TRUSTED_PROXIES = ()


@pytest.fixture
def player():
    make = get_user_model().objects.create_user
    make("gm", password="pw-gm-12345")
    return make("player", password=PASSWORD)


def token(username, password, address=STRANGER, client=None, **headers):
    return (client or APIClient()).post(
        "/api/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        **headers,
    )


def fail(times, username="player", address=STRANGER, **headers):
    return [token(username, "wrong", address, **headers).status_code for _ in range(times)]


def let_time_pass(minutes):
    LoginFailure.objects.update(at=F("at") - timedelta(minutes=minutes))


def test_below_the_limit_a_wrong_password_is_bad_credentials(player):
    answer = token("player", "wrong")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_credentials"
    assert "Retry-After" not in answer.headers


def test_over_the_limit_the_answer_is_429_saying_when_to_try_again(player):
    assert fail(PER_ACCOUNT) == [400] * PER_ACCOUNT
    answer = token("player", "wrong")
    assert answer.status_code == 429
    assert answer.json() == {
        "error": {
            "code": "too_many_attempts",
            "message": f"too many failed log-ins; try again in {COOL_OFF} minutes",
            "field": None,
        }
    }
    assert COOL_OFF * 60 - 5 <= int(answer.headers["Retry-After"]) <= COOL_OFF * 60


def test_the_right_password_is_refused_while_locked(player):
    fail(PER_ACCOUNT)
    answer = token("player", PASSWORD)
    assert answer.status_code == 429
    assert answer.json()["error"]["code"] == "too_many_attempts"
    assert not Token.objects.filter(user=player).exists()


def test_refused_attempts_do_not_extend_the_lock(player):
    fail(PER_ACCOUNT)
    fail(10)
    assert LoginFailure.objects.count() == PER_ACCOUNT


def test_the_lock_ends_with_the_cool_off(player):
    fail(PER_ACCOUNT)
    let_time_pass(COOL_OFF - 5)
    answer = token("player", PASSWORD)
    assert answer.status_code == 429
    assert answer.json()["error"]["message"].endswith("try again in 5 minutes")
    assert 5 * 60 - 5 <= int(answer.headers["Retry-After"]) <= 5 * 60
    let_time_pass(5)
    assert token("player", PASSWORD).status_code == 200


def test_the_window_slides_one_failure_at_a_time(player):
    fail(1)
    let_time_pass(10)
    fail(PER_ACCOUNT - 1)
    # Locked until the first failure is 15 minutes old, 5 minutes from now.
    assert token("player", "wrong").json()["error"]["message"].endswith("in 5 minutes")
    let_time_pass(5)
    assert fail(1) == [400]
    assert fail(1) == [429]


def test_expired_failures_are_deleted_as_new_ones_come(player):
    fail(2)
    let_time_pass(COOL_OFF)
    fail(1)
    assert LoginFailure.objects.count() == 1


def test_a_stranger_does_not_lock_the_player_out_from_another_address(player):
    assert fail(PER_ACCOUNT + 2)[-1] == 429
    assert token("player", PASSWORD, STRANGER).status_code == 429
    answer = token("player", PASSWORD, PLAYER_HOME)
    assert answer.status_code == 200
    assert answer.json()["token"] == Token.objects.get(user=player).key


def test_guessing_from_many_addresses_locks_the_account_only_briefly(player):
    """Each address stays under its own limits; together they pass the
    account's, which then holds for every address for the short window."""
    addresses = [f"203.0.113.{i}" for i in range(10, 20)]
    answers = []
    for address in addresses:
        answers += fail(2, address=address)
    assert answers[:PER_ACCOUNT_EVERYWHERE] == [400] * PER_ACCOUNT_EVERYWHERE
    assert set(answers[PER_ACCOUNT_EVERYWHERE:]) == {429}
    locked = token("player", PASSWORD, PLAYER_HOME)
    assert locked.status_code == 429
    assert int(locked.headers["Retry-After"]) <= ACCOUNT_COOL_OFF * 60
    assert token("gm", "pw-gm-12345", addresses[0]).status_code == 200
    let_time_pass(ACCOUNT_COOL_OFF)
    assert token("player", PASSWORD, PLAYER_HOME).status_code == 200


def test_an_address_failing_many_accounts_is_locked_for_every_account(player):
    names = [f"guess{i}" for i in range(PER_ADDRESS)]
    assert [token(name, "wrong").status_code for name in names] == [400] * PER_ADDRESS
    assert token("gm", "pw-gm-12345").status_code == 429
    assert token("gm", "pw-gm-12345", PLAYER_HOME).status_code == 200


def test_an_ipv6_client_counts_by_its_64_network(player):
    for host in range(1, PER_ACCOUNT + 1):
        assert token("player", "wrong", f"2001:db8:0:1::{host}").status_code == 400
    assert token("player", PASSWORD, "2001:db8:0:1:ffff::9").status_code == 429
    assert token("player", PASSWORD, "2001:db8:0:2::1").status_code == 200
    assert set(LoginFailure.objects.values_list("address", flat=True)) == {"2001:db8:0:1::/64"}


def test_the_count_is_in_the_database_every_worker_reads(player):
    """Two clients (as on two workers) from one address share one count,
    kept in the database rather than in a process."""
    first, second = APIClient(), APIClient()
    token("player", "wrong", client=first)
    token("player", "wrong", client=second)
    assert (
        list(LoginFailure.objects.values_list("username", "address")) == [("player", STRANGER)] * 2
    )
    token("player", "wrong", client=first)
    assert token("player", PASSWORD, client=second).status_code == 429


# The client's address


def test_without_a_trusted_proxy_x_forwarded_for_is_ignored(player):
    codes = [
        token("player", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}").status_code
        for i in range(PER_ACCOUNT + 3)
    ]
    assert codes == [400] * PER_ACCOUNT + [429] * 3
    assert set(LoginFailure.objects.values_list("address", flat=True)) == {STRANGER}


def test_behind_one_trusted_proxy_the_address_it_sets_is_the_client(player, settings):
    settings.TRUSTED_PROXIES = trusted_proxies(NGINX)
    assert fail(PER_ACCOUNT, address=NGINX, HTTP_X_FORWARDED_FOR=STRANGER) == [400] * PER_ACCOUNT
    assert set(LoginFailure.objects.values_list("address", flat=True)) == {STRANGER}
    # Another client behind the same proxy is not locked with the stranger.
    assert token("player", PASSWORD, NGINX, HTTP_X_FORWARDED_FOR=PLAYER_HOME).status_code == 200
    # The stranger's own header comes before the proxy's entry and changes nothing.
    spoofed = token("player", PASSWORD, NGINX, HTTP_X_FORWARDED_FOR=f"{PLAYER_HOME}, {STRANGER}")
    assert spoofed.status_code == 429


def test_a_forged_header_from_a_peer_that_is_no_trusted_proxy_changes_nothing(player, settings):
    settings.TRUSTED_PROXIES = trusted_proxies(NGINX)
    codes = [
        token("player", "wrong", STRANGER, HTTP_X_FORWARDED_FOR=f"192.0.2.{i}").status_code
        for i in range(PER_ACCOUNT + 2)
    ]
    assert codes == [400] * PER_ACCOUNT + [429] * 2
    assert set(LoginFailure.objects.values_list("address", flat=True)) == {STRANGER}


def test_behind_a_trusted_proxy_a_request_without_its_header_counts_by_remote_addr(
    player, settings
):
    settings.TRUSTED_PROXIES = trusted_proxies(NGINX)
    fail(1, address=STRANGER, HTTP_X_FORWARDED_FOR="not an address")
    fail(1, address=STRANGER)
    assert set(LoginFailure.objects.values_list("address", flat=True)) == {STRANGER}


def test_the_schema_documents_the_429(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    answers = schema["paths"]["/api/auth/token/"]["post"]["responses"]
    assert "429" in answers and "Retry-After" in answers["429"]["headers"]
