"""Play sessions (docs/dice.md): their list, starting and ending one (GM),
and one session's rolls as the caller saw them, with what checking their
dice needs."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.tabletop import services, sessions
from vtt.tabletop.errors import NotFound

from ..permissions import campaign_access
from ..serializers import SessionCheckOut, SessionOut
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
