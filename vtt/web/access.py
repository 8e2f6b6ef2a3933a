"""Who may open which page. A campaign a user is not a member of answers 404,
as the REST API does, so a page never reveals that a campaign exists."""

from django.http import Http404
from django.shortcuts import get_object_or_404

from vtt.tabletop import policy
from vtt.tabletop.models import Campaign, Membership


def membership_or_404(user, campaign_id: int) -> Membership:
    if not user.is_authenticated:
        raise Http404("no such campaign")
    return get_object_or_404(
        Membership.objects.select_related("campaign"), campaign_id=campaign_id, user=user
    )


def gm_membership_or_404(user, campaign_id: int) -> Membership:
    """The GM console's pages are for GMs; to anyone else they do not exist."""
    membership = membership_or_404(user, campaign_id)
    if not policy.runs_table(membership):
        raise Http404("no such page")
    return membership


def campaign_of(membership: Membership) -> Campaign:
    return membership.campaign
