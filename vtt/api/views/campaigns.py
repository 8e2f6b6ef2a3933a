"""Campaigns, their members and their invites."""

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from vtt.accounts.join_limits import count_join_failure, join_lockout
from vtt.core.errors import NotFound
from vtt.tabletop import selectors, services
from vtt.tabletop.serialize import campaign_data, invite_data, member_data

from ..permissions import campaign_access, gm_access, invite_access
from ..serializers import (
    CampaignIn,
    CampaignOut,
    CampaignPatchIn,
    ErrorOut,
    InviteAcceptIn,
    InviteIn,
    InviteOut,
    MemberOut,
    MembershipOut,
    RoleIn,
)
from .auth import too_many_attempts
from .base import ERRORS, READ_ERRORS, TabletopView


def _campaign(campaign, role: str) -> dict:
    return {**campaign_data(campaign), "role": role}


class CampaignListView(TabletopView):
    @extend_schema(responses={200: CampaignOut(many=True), 401: ERRORS[401]})
    def get(self, request):
        roles = dict(request.user.memberships.values_list("campaign_id", "role"))
        return self.page(selectors.campaigns_of(request.user), lambda c: _campaign(c, roles[c.pk]))

    @extend_schema(request=CampaignIn, responses={201: CampaignOut, **ERRORS})
    def post(self, request):
        data = self.parse(CampaignIn).validated_data
        campaign = services.campaign_create(
            owner=request.user,
            name=data["name"],
            game=data["game"],
            settings=data.get("settings"),
        )
        return Response(_campaign(campaign, "gm"), status=status.HTTP_201_CREATED)


class CampaignDetailView(TabletopView):
    @extend_schema(responses={200: CampaignOut, **READ_ERRORS})
    def get(self, request, campaign_id):
        campaign, viewer = campaign_access(request.user, campaign_id)
        return Response(_campaign(campaign, viewer.role))

    @extend_schema(request=CampaignPatchIn, responses={200: CampaignOut, **ERRORS})
    def patch(self, request, campaign_id):
        campaign_access(request.user, campaign_id)
        fields = self.parse(CampaignPatchIn).given()
        campaign = services.campaign_update(campaign_id=campaign_id, by=request.user, **fields)
        return Response(_campaign(campaign, "gm"))

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, campaign_id):
        campaign_access(request.user, campaign_id)
        services.campaign_delete(campaign_id=campaign_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MemberListView(TabletopView):
    @extend_schema(responses={200: MemberOut(many=True), **READ_ERRORS})
    def get(self, request, campaign_id):
        campaign_access(request.user, campaign_id)
        return self.page(selectors.members_of(campaign_id), member_data)


class MemberDetailView(TabletopView):
    @extend_schema(request=RoleIn, responses={200: MemberOut, **ERRORS})
    def patch(self, request, campaign_id, user_id):
        campaign_access(request.user, campaign_id)
        role = self.parse(RoleIn).validated_data["role"]
        member = services.membership_set_role(
            campaign_id=campaign_id, by=request.user, user_id=user_id, role=role
        )
        return Response(member_data(member))

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, campaign_id, user_id):
        campaign_access(request.user, campaign_id)
        services.membership_remove(campaign_id=campaign_id, by=request.user, user_id=user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InviteListView(TabletopView):
    @extend_schema(responses={200: InviteOut(many=True), **ERRORS})
    def get(self, request, campaign_id):
        gm_access(request.user, campaign_id, "see invites")
        return self.page(selectors.invites_of(campaign_id), invite_data)

    @extend_schema(request=InviteIn, responses={201: InviteOut, **ERRORS})
    def post(self, request, campaign_id):
        campaign, _ = campaign_access(request.user, campaign_id)
        data = self.parse(InviteIn).validated_data
        invite = services.invite_create(campaign=campaign, by=request.user, **data)
        return Response(invite_data(invite), status=status.HTTP_201_CREATED)


class InviteDetailView(TabletopView):
    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request, invite_id):
        invite_access(request.user, invite_id)
        services.invite_revoke(invite_id=invite_id, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InviteAcceptView(TabletopView):
    """Join the invite's campaign (someone already in it keeps their role).
    Wrong codes are limited per user and client address, as on the join
    page (docs/security.md): past the limit every code, right or wrong, is
    refused with 429 until `Retry-After` seconds have passed."""

    @extend_schema(
        request=InviteAcceptIn,
        responses={
            200: MembershipOut,
            **ERRORS,
            429: OpenApiResponse(
                ErrorOut, description="Too many wrong codes: `too_many_attempts`."
            ),
        },
        parameters=[
            OpenApiParameter(
                "Retry-After",
                int,
                OpenApiParameter.HEADER,
                response=[429],
                description="Seconds until this client may try a code again.",
            )
        ],
    )
    def post(self, request):
        code = self.parse(InviteAcceptIn).validated_data["code"]
        lockout = join_lockout(request)
        if lockout is not None:
            return too_many_attempts(lockout)
        try:
            member = services.invite_accept(code=code, user=request.user)
        except NotFound:
            count_join_failure(request)
            raise
        return Response({**member_data(member), "campaign_id": member.campaign_id})
