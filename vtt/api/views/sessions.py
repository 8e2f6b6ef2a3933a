"""Play sessions (docs/dice.md): their list, starting and ending one (GM),
and one session's rolls as the caller saw them, with what checking their
dice needs."""

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import renderers, status
from rest_framework.response import Response

from vtt import dice
from vtt.core.errors import NotFound, ServiceError
from vtt.records import dice_stats, journal, replay, sessions

from ..permissions import campaign_access
from ..serializers import DiceStatsOut, ReplayOut, SessionCheckOut, SessionOut
from .base import ERRORS, READ_ERRORS, TabletopView


class SessionListView(TabletopView):
    @extend_schema(responses={200: SessionOut(many=True), **READ_ERRORS})
    def get(self, request, campaign_id):
        campaign_access(request.user, campaign_id)
        return self.page(sessions.sessions_of(campaign_id), sessions.session_data)

    @extend_schema(request=None, responses={201: SessionOut, **ERRORS})
    def post(self, request, campaign_id):
        """Start the campaign's next session (GM): its seed's digest is
        published in the room before any roll."""
        campaign_access(request.user, campaign_id)
        started = dice.session_start(campaign_id=campaign_id, by=request.user)
        return Response(sessions.session_data(started), status=status.HTTP_201_CREATED)


class SessionEndView(TabletopView):
    @extend_schema(request=None, responses={200: SessionOut, **ERRORS})
    def post(self, request, campaign_id):
        """End the open session (GM): its seed is published in the room."""
        campaign_access(request.user, campaign_id)
        ended = dice.session_end(campaign_id=campaign_id, by=request.user)
        return Response(sessions.session_data(ended))


class SessionDetailView(TabletopView):
    @extend_schema(responses={200: SessionCheckOut, **READ_ERRORS})
    def get(self, request, campaign_id, number):
        """The session and the throws of it the caller saw (never one hidden
        from them), each with its nonce and dice, to check once the seed is out."""
        _, viewer = campaign_access(request.user, campaign_id)
        session = sessions.played_session(campaign_id, number)
        return Response(sessions.session_check(session, viewer))


class SessionReplayView(TabletopView):
    @extend_schema(
        parameters=[
            OpenApiParameter("as", int, description="A member's user id: their view (GM only)."),
            OpenApiParameter("after", int, description="The page after this seq (`next`)."),
        ],
        responses={200: ReplayOut, **ERRORS},
    )
    def get(self, request, campaign_id, number):
        """The session's replay as the caller received it (or, for a GM, as
        the member `as` did): the log from the scene change the map at its
        start comes from to its end, each event through the visibility
        policy (docs/replay.md)."""
        _, viewer = campaign_access(request.user, campaign_id)
        session = sessions.played_session(campaign_id, number)
        member = replay.watcher(campaign_id, viewer, request.query_params.get("as"))
        after = request.query_params.get("after")
        if after is not None and not (after.isdigit() and int(after) <= 2**63 - 1):
            raise ServiceError("invalid", "after: must be a sequence number", "after")
        return Response(replay.replay_data(session, member, None if after is None else int(after)))


class MarkdownRenderer(renderers.BaseRenderer):
    """Lets a client ask for the journal with `Accept: text/markdown` or
    `?format=md`; a refusal asked for that way comes as its message."""

    media_type = "text/markdown"
    format = "md"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, dict) and "error" in data:
            data = f"Error: {data['error']['message']}\n"
        return str(data).encode(self.charset)


class SessionJournalView(TabletopView):
    renderer_classes = [renderers.JSONRenderer, MarkdownRenderer]

    @extend_schema(
        responses={
            200: OpenApiResponse(OpenApiTypes.STR, description="text/markdown"),
            **READ_ERRORS,
        }
    )
    def get(self, request, campaign_id, number):
        """The session's journal in Markdown, as the caller saw the session
        (the GM's with the hidden rolls; a player's without what was hidden)."""
        _, viewer = campaign_access(request.user, campaign_id)
        session = sessions.played_session(campaign_id, number)
        text = journal.journal(session, viewer).markdown()
        return HttpResponse(text, content_type="text/markdown; charset=utf-8")


def session_filter(campaign_id: int, value: str | None) -> int | None:
    """The `session` query parameter: absent (every session) or one of the
    campaign's session numbers."""
    if value in (None, ""):
        return None
    if not value.isdigit() or len(value) > 9:
        raise ServiceError("invalid", "session must be a session's number", "session")
    if sessions.session_of(campaign_id, int(value)) is None:
        raise NotFound("no such session", "session")
    return int(value)


class DiceStatsView(TabletopView):
    @extend_schema(
        parameters=[
            OpenApiParameter("session", int, description="One session's dice (default: all).")
        ],
        responses={200: DiceStatsOut, **ERRORS},
    )
    def get(self, request, campaign_id):
        """How the dice the caller saw came up, per player and per character,
        against a fair die (docs/dice.md, "Dice statistics")."""
        _, viewer = campaign_access(request.user, campaign_id)
        number = session_filter(campaign_id, request.query_params.get("session"))
        return Response(dice_stats.dice_stats(campaign_id, viewer, number))
