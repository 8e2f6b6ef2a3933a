"""The log-in page refuses a client over its failed log-in limits with 429
and tells it, in the form's errors, when it may try again. The page, the
API's token endpoint and the admin count the same failures."""

from datetime import timedelta

import pytest
from django.db.models import F
from django.test import Client

from vtt.accounts.client_address import trusted_proxies
from vtt.accounts.models import LoginFailure

pytestmark = pytest.mark.django_db

STRANGER = "203.0.113.5"
PLAYER_HOME = "198.51.100.20"
NGINX = "10.0.0.2"
PER_ACCOUNT = 3
COOL_OFF = 15
LOCKED = f"too many failed log-ins; try again in {COOL_OFF} minutes"


@pytest.fixture(autouse=True)
def limits(settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = PER_ACCOUNT
    settings.LOGIN_FAILURES_PER_ADDRESS = 10
    settings.LOGIN_COOL_OFF_MINUTES = COOL_OFF
    settings.TRUSTED_PROXIES = ()


def log_in(password, username="player", address=STRANGER, client=None, **headers):
    return (client or Client()).post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **headers,
    )


def fail(times, address=STRANGER, **headers):
    return [log_in("wrong", address=address, **headers).status_code for _ in range(times)]


def signed_in(client) -> bool:
    return client.get("/").context["user"].is_authenticated


def test_below_the_limit_a_wrong_password_shows_the_usual_error(users):
    page = log_in("wrong")
    assert page.status_code == 200
    assert "Please enter a correct username and password" in page.content.decode()


def test_over_the_limit_the_page_answers_429_and_says_when_to_try_again(users):
    assert fail(PER_ACCOUNT) == [200] * PER_ACCOUNT
    page = log_in("wrong")
    assert page.status_code == 429
    assert COOL_OFF * 60 - 5 <= int(page["Retry-After"]) <= COOL_OFF * 60
    assert page.context["form"].non_field_errors() == [LOCKED]
    html = page.content.decode()
    assert 'class="form-errors" role="alert"' in html and LOCKED in html
    assert "Please enter a correct username" not in html


def test_the_right_password_is_refused_while_locked(users):
    fail(PER_ACCOUNT)
    client = Client()
    page = log_in("pw-pl-12345", client=client)
    assert page.status_code == 429
    assert not signed_in(client)


def test_the_lock_ends_with_the_cool_off(users):
    fail(PER_ACCOUNT)
    LoginFailure.objects.update(at=F("at") - timedelta(minutes=COOL_OFF))
    client = Client()
    assert log_in("pw-pl-12345", client=client).status_code == 302
    assert signed_in(client)


def test_a_player_at_another_address_still_logs_in(users):
    assert fail(PER_ACCOUNT + 1)[-1] == 429
    client = Client()
    assert log_in("pw-pl-12345", address=PLAYER_HOME, client=client).status_code == 302
    assert signed_in(client)


def test_a_new_x_forwarded_for_each_time_does_not_get_round_the_limit(users):
    codes = [
        log_in("wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}").status_code
        for i in range(PER_ACCOUNT + 2)
    ]
    assert codes == [200] * PER_ACCOUNT + [429] * 2


def test_behind_one_trusted_proxy_the_address_it_sets_counts(users, settings):
    settings.TRUSTED_PROXIES = trusted_proxies(NGINX)
    fail(PER_ACCOUNT, address=NGINX, HTTP_X_FORWARDED_FOR=STRANGER)
    assert log_in("wrong", address=NGINX, HTTP_X_FORWARDED_FOR=STRANGER).status_code == 429
    home = log_in("pw-pl-12345", address=NGINX, HTTP_X_FORWARDED_FOR=PLAYER_HOME)
    assert home.status_code == 302


def test_the_page_and_the_api_count_the_same_failures(users):
    fail(PER_ACCOUNT - 1)
    Client().post(
        "/api/auth/token/",
        {"username": "player", "password": "wrong"},
        content_type="application/json",
        REMOTE_ADDR=STRANGER,
    )
    assert log_in("pw-pl-12345").status_code == 429


def test_the_admin_log_in_is_refused_too(users):
    users["gm"].is_staff = True
    users["gm"].save()
    for _ in range(PER_ACCOUNT):
        log_in("wrong", username="gm")
    client = Client()
    page = client.post(
        "/admin/login/",
        {"username": "gm", "password": "pw-gm-12345", "next": "/admin/"},
        REMOTE_ADDR=STRANGER,
    )
    assert page.status_code == 200  # the admin's own form, without a login
    assert client.get("/admin/").status_code == 302
    # The same account from another address gets in.
    other = Client()
    page = other.post(
        "/admin/login/",
        {"username": "gm", "password": "pw-gm-12345", "next": "/admin/"},
        REMOTE_ADDR=PLAYER_HOME,
    )
    assert page.status_code == 302 and other.get("/admin/").status_code == 200


def test_staff_see_and_lift_locks_in_the_admin(users):
    fail(PER_ACCOUNT)
    admin = Client()
    users["gm"].is_staff = users["gm"].is_superuser = True
    users["gm"].save()
    admin.force_login(users["gm"])
    listing = admin.get("/admin/accounts/loginfailure/")
    assert listing.status_code == 200 and STRANGER in listing.content.decode()
    rows = LoginFailure.objects.filter(address=STRANGER).values_list("pk", flat=True)
    deleted = admin.post(
        "/admin/accounts/loginfailure/",
        {"action": "delete_selected", "_selected_action": list(rows), "post": "yes"},
    )
    assert deleted.status_code == 302 and not LoginFailure.objects.exists()
    assert log_in("pw-pl-12345").status_code == 302
