from django.contrib.auth import views as auth_views
from django.urls import path

from .views import accounts, characters, gm, lobby, maps, room, sessions, spectators

app_name = "web"

urlpatterns = [
    path("", lobby.home, name="home"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("campaigns/new/", lobby.campaign_new, name="campaign_new"),
    path("campaigns/import/", lobby.campaign_import, name="campaign_import"),
    path(
        "campaigns/import/confirm/",
        lobby.campaign_import_confirm,
        name="campaign_import_confirm",
    ),
    path("join/", lobby.invite_join, name="invite_join"),
    path("campaigns/<int:campaign_id>/room/", room.room, name="room"),
    path("campaigns/<int:campaign_id>/characters/", characters.index, name="characters"),
    path("campaigns/<int:campaign_id>/characters/new/", characters.create, name="character_new"),
    path(
        "campaigns/<int:campaign_id>/characters/<int:character_id>/",
        characters.edit,
        name="character",
    ),
    path("campaigns/<int:campaign_id>/sessions/", sessions.index, name="sessions"),
    path("campaigns/<int:campaign_id>/sessions/start/", sessions.start, name="session_start"),
    path("campaigns/<int:campaign_id>/sessions/end/", sessions.end, name="session_end"),
    path(
        "campaigns/<int:campaign_id>/sessions/<int:number>/",
        sessions.check,
        name="session_check",
    ),
    path(
        "campaigns/<int:campaign_id>/sessions/<int:number>/replay/",
        sessions.replay,
        name="session_replay",
    ),
    path(
        "campaigns/<int:campaign_id>/sessions/<int:number>/journal/",
        sessions.session_journal,
        name="session_journal",
    ),
    path("campaigns/<int:campaign_id>/dice/", sessions.dice, name="dice"),
    path("campaigns/<int:campaign_id>/gm/", gm.console, name="gm"),
    path("campaigns/<int:campaign_id>/gm/invites/", gm.invite_new, name="gm_invite_new"),
    path("campaigns/<int:campaign_id>/gm/members/", gm.member_role, name="gm_member_role"),
    path("campaigns/<int:campaign_id>/gm/settings/", gm.settings_save, name="gm_settings"),
    path("campaigns/<int:campaign_id>/gm/undo/", gm.undo, name="gm_undo"),
    path(
        "campaigns/<int:campaign_id>/gm/spectators/",
        spectators.link_new,
        name="gm_spectator_new",
    ),
    path(
        "campaigns/<int:campaign_id>/gm/spectators/<int:link_id>/revoke/",
        spectators.link_revoked,
        name="gm_spectator_revoke",
    ),
    # A spectator link: the room watched read-only, by whoever holds it.
    path("watch/<str:token>/", spectators.watch, name="watch"),
    path("campaigns/<int:campaign_id>/gm/backup/", gm.backup, name="gm_backup"),
    path("campaigns/<int:campaign_id>/gm/scenes/", gm.scene_new, name="gm_scene_new"),
    path("campaigns/<int:campaign_id>/gm/maps/", maps.map_upload, name="gm_map_new"),
    path(
        "campaigns/<int:campaign_id>/gm/maps/confirm/",
        maps.map_confirm,
        name="gm_map_new_confirm",
    ),
    path(
        "campaigns/<int:campaign_id>/gm/scenes/<int:scene_id>/map/",
        maps.map_upload,
        name="gm_scene_map",
    ),
    path(
        "campaigns/<int:campaign_id>/gm/scenes/<int:scene_id>/map/confirm/",
        maps.map_confirm,
        name="gm_scene_map_confirm",
    ),
    path("campaigns/<int:campaign_id>/gm/scenes/<int:scene_id>/", gm.scene_edit, name="gm_scene"),
    path(
        "campaigns/<int:campaign_id>/gm/scenes/<int:scene_id>/activate/",
        gm.scene_activate,
        name="gm_scene_activate",
    ),
    path(
        "campaigns/<int:campaign_id>/gm/scenes/<int:scene_id>/tokens/",
        gm.token_new,
        name="gm_token_new",
    ),
    path(
        "campaigns/<int:campaign_id>/gm/scenes/<int:scene_id>/tokens/<int:token_id>/",
        gm.token_edit,
        name="gm_token_edit",
    ),
    path(
        "campaigns/<int:campaign_id>/gm/scenes/<int:scene_id>/tokens/<int:token_id>/remove/",
        gm.token_remove,
        name="gm_token_remove",
    ),
]
