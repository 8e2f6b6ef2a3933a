"""The roll history, as each caller may see it, and rolling from a script."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.tabletop import selectors, services

from ..permissions import campaign_access, roll_access
from ..serializers import RollIn, RollOut
from .base import ERRORS, READ_ERRORS, TabletopView


class RollListView(TabletopView):
    @extend_schema(responses={200: RollOut(many=True), **READ_ERRORS})
    def get(self, request, campaign_id):
        _, viewer = campaign_access(request.user, campaign_id)
        return self.page(
            selectors.rolls_for(viewer, campaign_id), lambda r: selectors.roll_view(r, viewer)
        )

    @extend_schema(request=RollIn, responses={201: RollOut, **ERRORS})
    def post(self, request, campaign_id):
        """Adjudicate a rules request in the campaign's game and record it.
        For a character, `fill` takes numbers from the sheet and what the
        roll spends (Action Points, Insight Dice, Character and Fate Points)
        is taken from the character in the same transaction. The answer is
        what the caller may see of the roll: a GM-only roll by a player comes
        back as a bare announcement."""
        _, viewer = campaign_access(request.user, campaign_id)
        data = self.parse(RollIn).validated_data
        roll = services.character_roll(campaign_id=campaign_id, by=request.user, **data)
        view = selectors.roll_view(roll, viewer) or selectors.roll_announcement(roll)
        return Response(view, status=status.HTTP_201_CREATED)


class RollDetailView(TabletopView):
    @extend_schema(responses={200: RollOut, **READ_ERRORS})
    def get(self, request, roll_id):
        view, _ = roll_access(request.user, roll_id)
        return Response(view)
