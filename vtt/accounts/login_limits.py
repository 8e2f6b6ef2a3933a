"""How many failed log-ins a client may make (docs/security.md, "Log-in
limits and the trusted proxy").

Failures are counted per account from one address, and per address whatever
the account, over a sliding cool-off: a client that has failed its limit
within the last LOGIN_COOL_OFF_MINUTES is refused until the oldest counted
failure leaves the window. Per account from every address together there is
a higher limit over a short window (LOGIN_ACCOUNT_COOL_OFF_MINUTES): it
bounds guessing spread over many addresses, and since anyone can trip it,
it locks a player out for minutes at most, not for the long cool-off. A
refused log-in is not checked at all, the right password included, and is
not counted, so the lock ends when it said.

LoginLimitBackend enforces this on every path that authenticates with a
request; count_failure (connected in apps.py) counts Django's
user_login_failed. The rows are in the database, so every worker process
sees the same counts."""

import ipaddress
import math
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from .client_address import client_address
from .models import LoginFailure

LOCKOUT_ATTRIBUTE = "login_lockout"


@dataclass(frozen=True)
class Lockout:
    retry_after: int  # whole seconds
    failures: str = "failed log-ins"  # what there were too many of

    @property
    def message(self) -> str:
        minutes = math.ceil(self.retry_after / 60)
        unit = "minute" if minutes == 1 else "minutes"
        return f"too many {self.failures}; try again in {minutes} {unit}"


def cool_off() -> timedelta:
    return timedelta(minutes=settings.LOGIN_COOL_OFF_MINUTES)


def account_cool_off() -> timedelta:
    return timedelta(minutes=settings.LOGIN_ACCOUNT_COOL_OFF_MINUTES)


def counted_address(request) -> str:
    """The client as failures count it. One IPv6 host commonly holds a whole
    /64, so it counts as one address, and an IPv4 client seen through an
    IPv6 socket counts as its IPv4 address."""
    address = client_address(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if ip.version == 6 and ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def lockout_for(username: str, address: str) -> Lockout | None:
    """The wait before this account may be tried from this address again,
    or None if it may be tried now. Every limit applies; the longest wait wins."""
    now = timezone.now()
    recent = LoginFailure.objects.filter(address=address, at__gt=now - cool_off())
    account = LoginFailure.objects.filter(username=username[:150], at__gt=now - account_cool_off())
    ends = [
        lock_end(
            recent.filter(username=username[:150]),
            settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
            cool_off(),
        ),
        lock_end(recent, settings.LOGIN_FAILURES_PER_ADDRESS, cool_off()),
        lock_end(account, settings.LOGIN_FAILURES_PER_ACCOUNT, account_cool_off()),
    ]
    until = max((end for end in ends if end is not None), default=None)
    if until is None:
        return None
    return Lockout(retry_after=max(1, math.ceil((until - now).total_seconds())))


def lock_end(failures, limit: int, window: timedelta):
    """When these failures fall back under the limit (when the limit-th
    newest leaves the window), or None if they are under it. A limit of 0
    is no limit."""
    if limit < 1:
        return None
    times = list(failures.order_by("-at").values_list("at", flat=True)[:limit])
    if len(times) < limit:
        return None
    return times[-1] + window


def record_failure(username: str, address: str) -> None:
    now = timezone.now()
    # Failures past both windows count for nothing; this keeps the table small.
    LoginFailure.objects.filter(at__lte=now - max(cool_off(), account_cool_off())).delete()
    LoginFailure.objects.create(username=username[:150], address=address, at=now)


def lockout_of(request) -> Lockout | None:
    """The lockout that refused this request's log-in, if one did."""
    return getattr(request, LOCKOUT_ATTRIBUTE, None)


def count_failure(sender, credentials, request=None, **kwargs):
    """user_login_failed: a password was checked and was wrong, or the
    account is unknown or inactive. Without a request there is no client
    to count against."""
    if request is None or lockout_of(request) is not None:
        return
    record_failure(credentials.get("username") or "", counted_address(request))


class LoginLimitBackend:
    """The first of AUTHENTICATION_BACKENDS: refuses a client over a limit
    before any password is checked, on the log-in page, the API's token
    endpoint and the admin alike, and leaves the lockout on the request for
    the view to explain. It never authenticates anyone itself."""

    def authenticate(self, request, username=None, **credentials):
        if request is None:
            return None
        lockout = lockout_for(username or "", counted_address(request))
        if lockout is None:
            return None
        setattr(request, LOCKOUT_ATTRIBUTE, lockout)
        # Django's authenticate() stops at PermissionDenied: no later backend runs.
        raise PermissionDenied(lockout.message)
