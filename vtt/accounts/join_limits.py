"""How many wrong invite codes a client may try (docs/security.md, "Invite
codes").

An invite code is all a stranger needs to enter a campaign, so guessing
codes is limited as guessing passwords is, by the same sliding cool-off:
JOIN_FAILURES_PER_USER wrong codes per signed-in user and
JOIN_FAILURES_PER_ADDRESS per address (whatever the user: making accounts
is free) within JOIN_COOL_OFF_MINUTES. Past either limit every code is
refused, the right one included, until the oldest counted failure leaves
the window; refused tries are not counted, so the lock ends when it said.
The join page and the API's invite endpoint both ask here."""

import math
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .login_limits import Lockout, counted_address, lock_end
from .models import JoinFailure

FAILURES = "wrong invite codes"


def cool_off():
    return timedelta(minutes=settings.JOIN_COOL_OFF_MINUTES)


def join_lockout(request) -> Lockout | None:
    """The wait before this user, from this address, may try a code again,
    or None if they may now. The longer wait of the two limits wins."""
    since = timezone.now() - cool_off()
    recent = JoinFailure.objects.filter(at__gt=since)
    ends = [
        lock_end(
            recent.filter(user_id=request.user.pk), settings.JOIN_FAILURES_PER_USER, cool_off()
        ),
        lock_end(
            recent.filter(address=counted_address(request)),
            settings.JOIN_FAILURES_PER_ADDRESS,
            cool_off(),
        ),
    ]
    until = max((end for end in ends if end is not None), default=None)
    if until is None:
        return None
    seconds = (until - timezone.now()).total_seconds()
    return Lockout(retry_after=max(1, math.ceil(seconds)), failures=FAILURES)


def count_join_failure(request) -> None:
    """A code was tried that is no invite."""
    now = timezone.now()
    # Failures past the window count for nothing; this keeps the table small.
    JoinFailure.objects.filter(at__lte=now - cool_off()).delete()
    JoinFailure.objects.create(user_id=request.user.pk, address=counted_address(request), at=now)
