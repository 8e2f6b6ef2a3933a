"""Play sessions (docs/dice.md): their list, starting and ending one (GM),
and one session's rolls as the caller saw them, with what checking their
dice needs."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.tabletop import replay, services, sessions
from vtt.tabletop.errors import NotFound, ServiceError

from ..permissions import campaign_access
from ..serializers import ReplayOut, SessionCheckOut, SessionOut
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
        started = services.session_start(campaign_id=campaign_id, by=request.user)
        return Response(sessions.session_data(started), status=status.HTTP_201_CREATED)


class SessionEndView(TabletopView):
    @extend_schema(request=None, responses={200: SessionOut, **ERRORS})
    def post(self, request, campaign_id):
        """End the open session (GM): its seed is published in the room."""
        campaign_access(request.user, campaign_id)
        ended = services.session_end(campaign_id=campaign_id, by=request.user)
        return Response(sessions.session_data(ended))


class SessionDetailView(TabletopView):
    @extend_schema(responses={200: SessionCheckOut, **READ_ERRORS})
    def get(self, request, campaign_id, number):
        """The session and the throws of it the caller saw (never one hidden
        from them), each with its nonce and dice, to check once the seed is out."""
        _, viewer = campaign_access(request.user, campaign_id)
        session = sessions.session_of(campaign_id, number)
        if session is None:
            raise NotFound("no such session")
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
        session = sessions.session_of(campaign_id, number)
        if session is None:
            raise NotFound("no such session")
        member = replay.watcher(campaign_id, viewer, request.query_params.get("as"))
        after = request.query_params.get("after")
        if after is not None and not (after.isdigit() and int(after) <= 2**63 - 1):
            raise ServiceError("invalid", "after: must be a sequence number", "after")
        return Response(replay.replay_data(session, member, None if after is None else int(after)))
