from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import rules_views
from .views import (
    auth,
    campaigns,
    characters,
    drawings,
    handouts,
    lights,
    markers,
    pictures,
    rolls,
    scenes,
    sessions,
    tokens,
)

urlpatterns = [
    path("adjudicate/", rules_views.AdjudicateView.as_view(), name="adjudicate"),
    path("odds/", rules_views.OddsView.as_view(), name="odds"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The page's start-up script is served apart from it (?script), so the
    # page needs no inline script (vtt/web/headers.py).
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("auth/token/", auth.AuthTokenView.as_view(), name="auth-token"),
    path("me/", auth.MeView.as_view(), name="me"),
    path("campaigns/", campaigns.CampaignListView.as_view(), name="campaigns"),
    path("campaigns/<int:campaign_id>/", campaigns.CampaignDetailView.as_view(), name="campaign"),
    path(
        "campaigns/<int:campaign_id>/members/",
        campaigns.MemberListView.as_view(),
        name="members",
    ),
    path(
        "campaigns/<int:campaign_id>/members/<int:user_id>/",
        campaigns.MemberDetailView.as_view(),
        name="member",
    ),
    path(
        "campaigns/<int:campaign_id>/invites/",
        campaigns.InviteListView.as_view(),
        name="invites",
    ),
    path("invites/<int:invite_id>/", campaigns.InviteDetailView.as_view(), name="invite"),
    path("invites/accept/", campaigns.InviteAcceptView.as_view(), name="invite-accept"),
    path(
        "campaigns/<int:campaign_id>/characters/",
        characters.CharacterListView.as_view(),
        name="characters",
    ),
    path(
        "characters/<int:character_id>/",
        characters.CharacterDetailView.as_view(),
        name="character",
    ),
    path(
        "characters/<int:character_id>/spend/",
        characters.SpendView.as_view(),
        name="character-spend",
    ),
    path(
        "characters/<int:character_id>/award/",
        characters.AwardView.as_view(),
        name="character-award",
    ),
    path(
        "characters/<int:character_id>/portrait/",
        pictures.PortraitView.as_view(),
        name="character-portrait",
    ),
    path(
        "campaigns/<int:campaign_id>/handouts/",
        handouts.HandoutListView.as_view(),
        name="handouts",
    ),
    path("handouts/<int:handout_id>/", handouts.HandoutDetailView.as_view(), name="handout"),
    path(
        "handouts/<int:handout_id>/share/",
        handouts.HandoutShareView.as_view(),
        name="handout-share",
    ),
    path("tokens/<int:token_id>/art/", pictures.TokenArtView.as_view(), name="token-art"),
    path("campaigns/<int:campaign_id>/scenes/", scenes.SceneListView.as_view(), name="scenes"),
    path(
        "campaigns/<int:campaign_id>/scenes/import/",
        scenes.CampaignMapImportView.as_view(),
        name="scenes-import",
    ),
    path("scenes/<int:scene_id>/", scenes.SceneDetailView.as_view(), name="scene"),
    path("scenes/<int:scene_id>/import/", scenes.SceneMapImportView.as_view(), name="scene-import"),
    path(
        "scenes/<int:scene_id>/background/",
        scenes.BackgroundView.as_view(),
        name="scene-background",
    ),
    path("scenes/<int:scene_id>/activate/", scenes.ActivateView.as_view(), name="scene-activate"),
    path("scenes/<int:scene_id>/doors/<int:index>/", scenes.DoorView.as_view(), name="scene-door"),
    path("scenes/<int:scene_id>/walls/", scenes.WallListView.as_view(), name="scene-walls"),
    path("scenes/<int:scene_id>/walls/<int:index>/", scenes.WallView.as_view(), name="scene-wall"),
    path("scenes/<int:scene_id>/fog/", scenes.FogView.as_view(), name="scene-fog"),
    path("scenes/<int:scene_id>/vision/", scenes.VisionView.as_view(), name="scene-vision"),
    path("scenes/<int:scene_id>/lights/", lights.LightListView.as_view(), name="scene-lights"),
    path("lights/<int:light_id>/", lights.LightDetailView.as_view(), name="light"),
    path(
        "scenes/<int:scene_id>/drawings/",
        drawings.DrawingListView.as_view(),
        name="scene-drawings",
    ),
    path("drawings/<int:drawing_id>/", drawings.DrawingDetailView.as_view(), name="drawing"),
    path("scenes/<int:scene_id>/tokens/", tokens.TokenListView.as_view(), name="tokens"),
    path("tokens/<int:token_id>/", tokens.TokenDetailView.as_view(), name="token"),
    path("tokens/<int:token_id>/move/", tokens.MoveView.as_view(), name="token-move"),
    path("tokens/<int:token_id>/hidden/", tokens.HiddenView.as_view(), name="token-hidden"),
    path("campaigns/<int:campaign_id>/markers/", markers.MarkerListView.as_view(), name="markers"),
    path("markers/<int:marker_id>/", markers.MarkerDetailView.as_view(), name="marker"),
    path("campaigns/<int:campaign_id>/rolls/", rolls.RollListView.as_view(), name="rolls"),
    path("rolls/<int:roll_id>/", rolls.RollDetailView.as_view(), name="roll"),
    path(
        "campaigns/<int:campaign_id>/sessions/",
        sessions.SessionListView.as_view(),
        name="sessions",
    ),
    path(
        "campaigns/<int:campaign_id>/sessions/end/",
        sessions.SessionEndView.as_view(),
        name="session-end",
    ),
    path(
        "campaigns/<int:campaign_id>/sessions/<int:number>/",
        sessions.SessionDetailView.as_view(),
        name="session",
    ),
    path(
        "campaigns/<int:campaign_id>/sessions/<int:number>/replay/",
        sessions.SessionReplayView.as_view(),
        name="session-replay",
    ),
    path(
        "campaigns/<int:campaign_id>/sessions/<int:number>/journal/",
        sessions.SessionJournalView.as_view(),
        name="session-journal",
    ),
    path(
        "campaigns/<int:campaign_id>/dice-stats/",
        sessions.DiceStatsView.as_view(),
        name="dice-stats",
    ),
]
