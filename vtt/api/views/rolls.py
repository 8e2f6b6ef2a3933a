"""The roll history, as each caller may see it, and rolling from a script."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt import dice
from vtt.core import shapes
from vtt.tabletop import selectors

from ..permissions import campaign_access, roll_access
from ..serializers import RollIn, RollOut, RollPageOut
from .base import ERRORS, MAX_ID, READ_ERRORS, TabletopView

PAGE = 50


def _before(raw: str | None) -> int | None:
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise shapes.invalid("before", "must be a roll id") from None
    return shapes.whole(value, "before", 1, MAX_ID)


class RollListView(TabletopView):
    @extend_schema(
        parameters=[
            OpenApiParameter("before", int, description="the rolls older than this roll id")
        ],
        responses={200: RollPageOut, **READ_ERRORS},
    )
    def get(self, request, campaign_id):
        """Newest first, 50 a page. A page is a range of the campaign's
        roll ids (keyset): `next` asks for the rolls before the page's
        last, so a page costs the same however deep it is, and no page
        counts the whole history."""
        _, viewer = campaign_access(request.user, campaign_id)
        before = _before(request.query_params.get("before"))
        rolls = selectors.rolls_for(viewer, campaign_id)
        if before is not None:
            rolls = rolls.filter(pk__lt=before)
        page = list(rolls[: PAGE + 1])
        more = len(page) > PAGE
        page = page[:PAGE]
        after = f"?before={page[-1].pk}" if more else None
        return Response(
            {
                "next": request.build_absolute_uri(request.path + after) if after else None,
                "results": [selectors.roll_view(r, viewer) for r in page],
            }
        )

    @extend_schema(request=RollIn, responses={201: RollOut, **ERRORS})
    def post(self, request, campaign_id):
        """Adjudicate a rules request in the campaign's game and record it.
        For a character, `fill` takes numbers from the sheet and what the
        roll spends (Action Points, Insight Dice, Character and Fate Points)
        is taken from the character in the same transaction. The answer is
        what the caller may see of the roll: a GM-only roll by a player comes
        back as a bare announcement."""
        data = self.parse(RollIn).validated_data
        roll = dice.roll_adjudicate(campaign_id=campaign_id, by=request.user, **data)
        # Who may roll is the service's to say; this reads how the roller
        # sees what they made, for the answer.
        _, viewer = campaign_access(request.user, campaign_id)
        view = selectors.roll_view(roll, viewer) or selectors.roll_announcement(roll)
        return Response(view, status=status.HTTP_201_CREATED)


class RollDetailView(TabletopView):
    @extend_schema(responses={200: RollOut, **READ_ERRORS})
    def get(self, request, roll_id):
        view, _ = roll_access(request.user, roll_id)
        return Response(view)
