"""The GM console: members, invites and spectator links, scenes (create, background, walls,
activate), the scene's tokens (place, edit, remove), the campaign's settings
and undo of the room's last result. GMs only; to anyone else these pages do
not exist (404)."""

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from vtt.combat.services.undo import last_result, undo_last
from vtt.dice.sessions import open_session
from vtt.records import sessions
from vtt.records.backup import export_campaign
from vtt.spectators.selectors import links_of
from vtt.tabletop import policy, services
from vtt.tabletop.models import Character, Invite, Membership, Scene, Token
from vtt.tabletop.services import ServiceError, StaleVersion

from ..access import gm_membership_or_404
from ..gm_forms import (
    BackgroundForm,
    InviteForm,
    MapFileForm,
    MemberRoleForm,
    SceneEditForm,
    SceneForm,
    SpectatorLinkForm,
    TokenEditForm,
    TokenForm,
    walls_text,
)
from ..results import describe_result
from ..service_errors import add_service_error
from ..settings_form import SettingsForm


def _console(request, membership, *, status=200, **forms):
    campaign = membership.campaign
    context = {
        "campaign": campaign,
        "members": Membership.objects.filter(campaign=campaign).select_related("user"),
        "invites": Invite.objects.filter(campaign=campaign),
        "scenes": Scene.objects.filter(campaign=campaign),
        "invite_form": forms.get("invite_form") or InviteForm(),
        "scene_form": forms.get("scene_form") or SceneForm(),
        "map_form": forms.get("map_form") or MapFileForm(auto_id="map-new-%s"),
        "settings_form": forms.get("settings_form")
        or SettingsForm(game=campaign.game, current=campaign.settings),
        "roles": MemberRoleForm.base_fields["role"].choices,
        "last_result": _last_result(campaign.pk),
        "open_session": open_session(campaign.pk),
        "latest_session": sessions.sessions_of(campaign.pk).last(),
        # Spectator links (./spectators.py): a new one's address is shown
        # on the page that made it, and never again (only its hash is kept).
        "spectator_links": links_of(campaign.pk),
        "spectator_form": forms.get("spectator_form") or SpectatorLinkForm(),
        "new_spectator_url": forms.get("new_spectator_url"),
    }
    return render(request, "web/gm.html", context, status=status)


def _last_result(campaign_id: int) -> dict | None:
    event = last_result(campaign_id)
    return {"seq": event.seq, "words": describe_result(event)} if event else None


@login_required
def console(request, campaign_id: int):
    return _console(request, gm_membership_or_404(request.user, campaign_id))


@login_required
@require_POST
def invite_new(request, campaign_id: int):
    membership = gm_membership_or_404(request.user, campaign_id)
    form = InviteForm(request.POST)
    if form.is_valid():
        days = form.cleaned_data["expires_days"]
        try:
            invite = services.invite_create(
                campaign=membership.campaign,
                by=request.user,
                role=form.cleaned_data["role"],
                max_uses=form.cleaned_data["max_uses"],
                expires_at=timezone.now() + timedelta(days=days) if days else None,
            )
        except ServiceError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"New invite code: {invite.code}")
            return redirect("web:gm", campaign_id=campaign_id)
    return _console(request, membership, invite_form=form, status=400)


@login_required
@require_POST
def member_role(request, campaign_id: int):
    gm_membership_or_404(request.user, campaign_id)
    form = MemberRoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a member and a role.")
        return redirect("web:gm", campaign_id=campaign_id)
    user_id, role = form.cleaned_data["user_id"], form.cleaned_data["role"]
    try:
        if role == "remove":
            services.membership_remove(campaign_id=campaign_id, by=request.user, user_id=user_id)
            messages.success(request, "Member removed.")
        else:
            services.membership_set_role(
                campaign_id=campaign_id, by=request.user, user_id=user_id, role=role
            )
            messages.success(request, "Role changed.")
    except ServiceError as exc:
        messages.error(request, exc.message)
    if role == "remove" and user_id == request.user.pk:
        return redirect("web:home")
    if not Membership.objects.filter(
        policy.gms_q(), campaign_id=campaign_id, user=request.user
    ).exists():
        return redirect("web:room", campaign_id=campaign_id)
    return redirect("web:gm", campaign_id=campaign_id)


@login_required
@require_POST
def settings_save(request, campaign_id: int):
    membership = gm_membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    form = SettingsForm(request.POST, game=campaign.game, current=campaign.settings)
    if form.is_valid():
        try:
            services.campaign_update_settings(
                campaign_id=campaign_id, by=request.user, settings=form.settings()
            )
        except ServiceError as exc:
            form.add_error(form.field_for(exc.field), exc.message)
        else:
            messages.success(request, "Settings saved.")
            return redirect("web:gm", campaign_id=campaign_id)
    return _console(request, membership, settings_form=form, status=400)


@login_required
@require_POST
def scene_new(request, campaign_id: int):
    membership = gm_membership_or_404(request.user, campaign_id)
    form = SceneForm(request.POST)
    if form.is_valid():
        try:
            scene = services.scene_create(
                campaign_id=campaign_id, by=request.user, **form.cleaned_data
            )
        except ServiceError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"Scene {scene.name} created.")
            return redirect("web:gm_scene", campaign_id=campaign_id, scene_id=scene.pk)
    return _console(request, membership, scene_form=form, status=400)


def _scene_page(request, membership, scene, *, status=200, edited=None, note=None, **forms):
    """The scene editor. `edited` is the token form that was posted and
    refused (drawn open with its errors); `note` says, on the card of the
    token it names, why an edit was not saved."""
    characters = list(Character.objects.filter(campaign=membership.campaign))
    tokens = scene.tokens.select_related("character").order_by("name", "pk")
    rows = []
    for token in tokens:
        form = edited if edited is not None and edited.token_id == token.pk else None
        said = note[1] if note and note[0] == token.pk else ""
        rows.append(
            {
                "token": token,
                "form": form or TokenEditForm.of(token, characters=characters),
                "open": form is not None or bool(said),
                "note": said,
            }
        )
    context = {
        "campaign": membership.campaign,
        "scene": scene,
        "is_active": membership.campaign.active_scene_id == scene.pk,
        "token_rows": rows,
        "scene_form": forms.get("scene_form")
        or SceneEditForm(
            initial={
                "name": scene.name,
                "width": scene.width,
                "height": scene.height,
                "walls": walls_text(scene.walls),
                "fog": scene.fog,
                "lit": scene.lit,
            }
        ),
        "background_form": forms.get("background_form") or BackgroundForm(),
        "map_form": forms.get("map_form") or MapFileForm(auto_id="map-%s"),
        "lights": scene.lights.filter(token__isnull=True).count(),
        "token_form": forms.get("token_form") or TokenForm(characters=characters),
    }
    return render(request, "web/gm_scene.html", context, status=status)


def _scene_token(campaign_id: int, scene_id: int, token_id: int) -> tuple[Scene, Token]:
    scene = get_object_or_404(Scene, pk=scene_id, campaign_id=campaign_id)
    return scene, get_object_or_404(Token, pk=token_id, scene=scene)


def _token_card(campaign_id: int, scene_id: int, token_id: int | None = None):
    """Back to the scene page, scrolled to the token's card (or the list)."""
    url = reverse("web:gm_scene", kwargs={"campaign_id": campaign_id, "scene_id": scene_id})
    return redirect(f"{url}#{f'token-{token_id}' if token_id else 'tokens-title'}")


@login_required
def scene_edit(request, campaign_id: int, scene_id: int):
    membership = gm_membership_or_404(request.user, campaign_id)
    scene = get_object_or_404(Scene, pk=scene_id, campaign_id=campaign_id)
    if request.method != "POST":
        return _scene_page(request, membership, scene)
    if "image" in request.FILES or request.POST.get("part") == "background":
        form = BackgroundForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                services.scene_set_background(
                    scene_id=scene.pk, by=request.user, image=form.cleaned_data["image"]
                )
            except ServiceError as exc:
                form.add_error("image", exc.message)
            else:
                messages.success(request, "Background uploaded.")
                return redirect("web:gm_scene", campaign_id=campaign_id, scene_id=scene.pk)
        return _scene_page(request, membership, scene, background_form=form, status=400)
    form = SceneEditForm(request.POST)
    if form.is_valid():
        try:
            services.scene_update(scene_id=scene.pk, by=request.user, **form.cleaned_data)
        except ServiceError as exc:
            if (exc.field or "").startswith("walls"):
                form.add_error("walls", form.wall_error(exc.field, exc.message))
            else:
                add_service_error(form, exc)
        else:
            messages.success(request, "Scene saved.")
            return redirect("web:gm_scene", campaign_id=campaign_id, scene_id=scene.pk)
    return _scene_page(request, membership, scene, scene_form=form, status=400)


@login_required
@require_POST
def scene_activate(request, campaign_id: int, scene_id: int):
    gm_membership_or_404(request.user, campaign_id)
    scene = get_object_or_404(Scene, pk=scene_id, campaign_id=campaign_id)
    try:
        services.scene_activate(scene_id=scene.pk, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{scene.name} is now on the table.")
    return redirect("web:gm", campaign_id=campaign_id)


@login_required
@require_POST
def token_new(request, campaign_id: int, scene_id: int):
    membership = gm_membership_or_404(request.user, campaign_id)
    scene = get_object_or_404(Scene, pk=scene_id, campaign_id=campaign_id)
    characters = Character.objects.filter(campaign=membership.campaign)
    form = TokenForm(request.POST, characters=characters)
    if form.is_valid():
        try:
            token = services.token_create(scene_id=scene.pk, by=request.user, **form.given())
        except ServiceError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"Token {token.name} placed.")
            return redirect("web:gm_scene", campaign_id=campaign_id, scene_id=scene.pk)
    return _scene_page(request, membership, scene, token_form=form, status=400)


@login_required
@require_POST
def token_edit(request, campaign_id: int, scene_id: int, token_id: int):
    """Save one token's card: what changed goes through the token services,
    so the room sees the move or the change as if it had been made there."""
    membership = gm_membership_or_404(request.user, campaign_id)
    scene, token = _scene_token(campaign_id, scene_id, token_id)
    characters = Character.objects.filter(campaign=membership.campaign)
    form = TokenEditForm.of(token, characters=characters, data=request.POST)
    if form.is_valid():
        fields = form.given()
        version = fields.pop("version")
        try:
            token = services.token_edit(
                token_id=token.pk, by=request.user, version=version, **fields
            )
        except StaleVersion as exc:
            now = exc.token
            note = (
                f"Not saved: {now.name} changed in the room since this page was drawn "
                f"(it is now at ({now.x}, {now.y})). Here it is as it is now."
            )
            return _scene_page(request, membership, scene, note=(token.pk, note), status=409)
        except ServiceError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"Token {token.name} saved.")
            return _token_card(campaign_id, scene.pk, token.pk)
    return _scene_page(request, membership, scene, edited=form, status=400)


@login_required
def token_remove(request, campaign_id: int, scene_id: int, token_id: int):
    """Remove a token, asked first: a GET, or a POST without `confirm`,
    draws the question; the POST that confirms removes it."""
    membership = gm_membership_or_404(request.user, campaign_id)
    scene, token = _scene_token(campaign_id, scene_id, token_id)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            services.token_delete(token_id=token.pk, by=request.user)
        except ServiceError as exc:
            messages.error(request, f"Not removed: {exc.message}.")
            return _token_card(campaign_id, scene.pk, token.pk)
        messages.success(request, f"Token {token.name} removed.")
        return _token_card(campaign_id, scene.pk)
    context = {"campaign": membership.campaign, "scene": scene, "token": token}
    return render(request, "web/gm_token_remove.html", context)


@login_required
@require_POST
def undo(request, campaign_id: int):
    """Undo the room's last applied result, as the room's Undo button does.
    The form names the result the GM saw, so one that arrived since is not
    undone by mistake (the service answers not_last)."""
    gm_membership_or_404(request.user, campaign_id)
    seq = request.POST.get("seq", "")
    try:
        event = undo_last(
            campaign_id=campaign_id, by=request.user, seq=int(seq) if seq.isdigit() else None
        )
    except ServiceError as exc:
        messages.error(request, f"Not undone: {exc.message}.")
    else:
        messages.success(request, f"Undone: entry #{event.payload.undo_of}.")
    return redirect("web:gm", campaign_id=campaign_id)


@login_required
def backup(request, campaign_id: int):
    """The campaign's archive, as this GM may see it (docs/backup.md): a
    GET, because it changes nothing; refused while a session is open."""
    membership = gm_membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    try:
        data = export_campaign(campaign, reader=request.user)
    except ServiceError as exc:
        messages.error(request, f"No backup: {exc.message}.")
        return redirect("web:gm", campaign_id=campaign_id)
    response = HttpResponse(data, content_type="application/zip")
    stamp = timezone.now().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}-{stamp}.zip"'
    response["Cache-Control"] = "no-store"
    return response
