"""Character sheets: a list per campaign, and one editor for every game
(vtt.web.sheet_form). Players edit their own characters' sheets and weapons;
the GM edits everything, resources and GM notes included. The services
validate; their refusals are shown on the field they name."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from vtt.tabletop import services
from vtt.tabletop.models import Character, Membership, Role
from vtt.tabletop.services import ServiceError

from ..access import membership_or_404
from ..sheet_form import SheetEditor


class CharacterForm(forms.Form):
    name = forms.CharField(label="Name", max_length=120)


class GMCharacterForm(CharacterForm):
    kind = forms.ChoiceField(label="Kind", choices=Character.Kind.choices)
    owner_id = forms.TypedChoiceField(
        label="Player", coerce=int, empty_value=None, required=False, choices=()
    )
    gm_notes = forms.CharField(
        label="GM notes (only GMs see these)",
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=20000,
    )

    def __init__(self, *args, campaign=None, **kwargs):
        super().__init__(*args, **kwargs)
        members = Membership.objects.filter(campaign=campaign).exclude(role=Role.OBSERVER)
        self.fields["owner_id"].choices = [("", "Nobody (the GM runs it)")] + [
            (m.user_id, m.user.get_username()) for m in members.select_related("user")
        ]


def _visible(membership):
    characters = Character.objects.filter(campaign=membership.campaign).select_related("owner")
    if membership.role == Role.GM:
        return characters
    return characters.filter(kind=Character.Kind.PC)


@login_required
def index(request, campaign_id: int):
    membership = membership_or_404(request.user, campaign_id)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "characters": _visible(membership),
        "can_create": membership.role != Role.OBSERVER,
    }
    return render(request, "web/characters.html", context)


def _form_class(is_gm):
    return GMCharacterForm if is_gm else CharacterForm


def _render_editor(request, membership, form, editor, character, errors, status=200):
    is_gm = membership.role == Role.GM
    can_edit = is_gm or (
        membership.role == Role.PLAYER
        and (character is None or character.owner_id == request.user.pk)
    )
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "character": character,
        "form": form,
        "sections": editor.sections(character, errors, gm=is_gm),
        "can_edit": can_edit,
        "unplaced_errors": errors,
    }
    return render(request, "web/character_edit.html", context, status=status)


def _save(request, membership, character):
    """Parse the posted form and call the service; return (character, errors)."""
    campaign = membership.campaign
    is_gm = membership.role == Role.GM
    form_class = _form_class(is_gm)
    kwargs = {"campaign": campaign} if is_gm else {}
    form = form_class(request.POST, **kwargs)
    editor = SheetEditor(campaign.game, campaign.settings)
    errors = {}
    if not form.is_valid():
        return form, editor, None, errors
    fields = dict(form.cleaned_data)
    fields.update(editor.parse(request.POST, gm=is_gm))
    try:
        if character is None:
            saved = services.character_create(campaign_id=campaign.pk, by=request.user, **fields)
        else:
            saved = services.character_update(character_id=character.pk, by=request.user, **fields)
    except ServiceError as exc:
        if exc.field in form.fields:
            form.add_error(exc.field, exc.message)
        else:
            errors[exc.field or ""] = exc.message
        return form, editor, None, errors
    return form, editor, saved, errors


@login_required
def create(request, campaign_id: int):
    membership = membership_or_404(request.user, campaign_id)
    if membership.role == Role.OBSERVER:
        raise Http404("observers create no characters")
    is_gm = membership.role == Role.GM
    campaign = membership.campaign
    if request.method == "POST":
        form, editor, saved, errors = _save(request, membership, None)
        if saved is not None:
            messages.success(
                request,
                f"{saved.name} is created. Finish the sheet here; the room's Sheet tab rolls from it.",
            )
            return redirect("web:character", campaign_id=campaign.pk, character_id=saved.pk)
        return _render_editor(request, membership, form, editor, None, errors, status=400)
    initial = {"kind": Character.Kind.PC, "owner_id": request.user.pk} if is_gm else {}
    form = _form_class(is_gm)(initial=initial, **({"campaign": campaign} if is_gm else {}))
    editor = SheetEditor(campaign.game, campaign.settings)
    return _render_editor(request, membership, form, editor, None, {})


@login_required
def edit(request, campaign_id: int, character_id: int):
    membership = membership_or_404(request.user, campaign_id)
    character = get_object_or_404(_visible(membership), pk=character_id)
    campaign = membership.campaign
    is_gm = membership.role == Role.GM
    if request.method == "POST":
        form, editor, saved, errors = _save(request, membership, character)
        if saved is not None:
            messages.success(request, f"{saved.name} saved.")
            return redirect("web:character", campaign_id=campaign.pk, character_id=saved.pk)
        return _render_editor(request, membership, form, editor, character, errors, status=400)
    initial = {"name": character.name}
    if is_gm:
        initial.update(
            kind=character.kind, owner_id=character.owner_id, gm_notes=character.gm_notes
        )
    form = _form_class(is_gm)(initial=initial, **({"campaign": campaign} if is_gm else {}))
    editor = SheetEditor(campaign.game, campaign.settings)
    return _render_editor(request, membership, form, editor, character, {})
