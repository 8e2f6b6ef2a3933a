"""Character sheets: a list per campaign, and one editor for every game
(vtt.web.sheet_form). Players edit their own characters' sheets and weapons;
the GM edits everything, resources and GM notes included. The services
validate; their refusals are shown on the field they name."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from vtt.pictures import images
from vtt.tabletop import policy, services
from vtt.tabletop.models import Character, Membership
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
        members = Membership.objects.filter(policy.takes_part_q(), campaign=campaign)
        self.fields["owner_id"].choices = [("", "Nobody (the GM runs it)")] + [
            (m.user_id, m.user.get_username()) for m in members.select_related("user")
        ]


class PortraitForm(forms.Form):
    """The picture, in the same form as the sheet: checked before the sheet
    is saved, stored after it (vtt.tabletop.services.art)."""

    portrait = forms.FileField(
        label="Portrait",
        required=False,
        help_text="PNG, JPEG, GIF or WebP, at most 10 MB. Tokens of this character show it.",
        widget=forms.FileInput(attrs={"accept": "image/png,image/jpeg,image/gif,image/webp"}),
    )
    portrait_clear = forms.BooleanField(label="Remove the portrait", required=False)

    def picture(self):
        """The upload (checked), "clear", or None: what to do to the portrait."""
        upload = self.cleaned_data.get("portrait")
        if upload:
            images.check_image(upload, field="portrait", limits=images.limits_for(images.PORTRAIT))
            return upload
        return "clear" if self.cleaned_data.get("portrait_clear") else None


def _visible(membership):
    characters = Character.objects.filter(campaign=membership.campaign).select_related("owner")
    return characters.filter(policy.visible_characters_q(policy.member_viewer(membership)))


@login_required
def index(request, campaign_id: int):
    membership = membership_or_404(request.user, campaign_id)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "characters": _visible(membership),
        "can_create": policy.takes_part(membership),
    }
    return render(request, "web/characters.html", context)


def _form_class(is_gm):
    return GMCharacterForm if is_gm else CharacterForm


def _render_editor(
    request, membership, form, editor, character, errors, status=200, portrait_form=None
):
    is_gm = policy.runs_table(membership)
    if character is None:
        can_edit = policy.takes_part(membership)
    else:
        can_edit = policy.may_edit_character(membership, character)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "character": character,
        "form": form,
        "sections": editor.sections(character, errors, gm=is_gm),
        "can_edit": can_edit,
        "unplaced_errors": errors,
        "portrait_form": portrait_form or PortraitForm(),
    }
    return render(request, "web/character_edit.html", context, status=status)


def _save(request, membership, character):
    """Parse the posted form and call the services; return (form, editor,
    character, errors, portrait form)."""
    campaign = membership.campaign
    is_gm = policy.runs_table(membership)
    form_class = _form_class(is_gm)
    kwargs = {"campaign": campaign} if is_gm else {}
    form = form_class(request.POST, **kwargs)
    portrait_form = PortraitForm(request.POST, request.FILES)
    editor = SheetEditor(campaign.game, campaign.settings)
    errors = {}
    if not (form.is_valid() & portrait_form.is_valid()):
        return form, editor, None, errors, portrait_form
    try:
        picture = portrait_form.picture()
    except ServiceError as exc:
        portrait_form.add_error("portrait", exc.message)
        return form, editor, None, errors, portrait_form
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
        return form, editor, None, errors, portrait_form
    try:
        if picture == "clear":
            saved = services.character_clear_portrait(character_id=saved.pk, by=request.user)
        elif picture is not None:
            saved = services.character_set_portrait(
                character_id=saved.pk, by=request.user, image=picture
            )
    except ServiceError as exc:
        # The sheet is saved; only the picture was refused.
        portrait_form.add_error("portrait", exc.message)
        return form, editor, None, errors, portrait_form
    return form, editor, saved, errors, portrait_form


@login_required
def create(request, campaign_id: int):
    membership = membership_or_404(request.user, campaign_id)
    if not policy.takes_part(membership):
        raise Http404("observers create no characters")
    is_gm = policy.runs_table(membership)
    campaign = membership.campaign
    if request.method == "POST":
        form, editor, saved, errors, portrait_form = _save(request, membership, None)
        if saved is not None:
            messages.success(
                request,
                f"{saved.name} is created. Finish the sheet here; the room's Sheet tab rolls from it.",
            )
            return redirect("web:character", campaign_id=campaign.pk, character_id=saved.pk)
        return _render_editor(request, membership, form, editor, None, errors, 400, portrait_form)
    initial = {"kind": Character.Kind.PC, "owner_id": request.user.pk} if is_gm else {}
    form = _form_class(is_gm)(initial=initial, **({"campaign": campaign} if is_gm else {}))
    editor = SheetEditor(campaign.game, campaign.settings)
    return _render_editor(request, membership, form, editor, None, {})


@login_required
def edit(request, campaign_id: int, character_id: int):
    membership = membership_or_404(request.user, campaign_id)
    character = get_object_or_404(_visible(membership), pk=character_id)
    campaign = membership.campaign
    is_gm = policy.runs_table(membership)
    if request.method == "POST":
        form, editor, saved, errors, portrait_form = _save(request, membership, character)
        if saved is not None:
            messages.success(request, f"{saved.name} saved.")
            return redirect("web:character", campaign_id=campaign.pk, character_id=saved.pk)
        character.refresh_from_db()  # the picture shown is the one stored
        return _render_editor(
            request, membership, form, editor, character, errors, 400, portrait_form
        )
    initial = {"name": character.name}
    if is_gm:
        initial.update(
            kind=character.kind, owner_id=character.owner_id, gm_notes=character.gm_notes
        )
    form = _form_class(is_gm)(initial=initial, **({"campaign": campaign} if is_gm else {}))
    editor = SheetEditor(campaign.game, campaign.settings)
    return _render_editor(request, membership, form, editor, character, {})
