"""The first page: a landing for visitors, the lobby for members (their
campaigns with their role, a new campaign, joining by invite code)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from vtt.accounts.join_limits import count_join_failure, join_lockout
from vtt.tabletop import services
from vtt.tabletop.backup import MAX_ARCHIVE_BYTES, import_campaign
from vtt.tabletop.models import Membership
from vtt.tabletop.services import NotFound, ServiceError

from ..forms import CampaignForm, ImportForm, JoinForm
from ..service_errors import add_service_error


def home(request):
    if not request.user.is_authenticated:
        return render(request, "web/landing.html")
    return _lobby(request, CampaignForm(), JoinForm())


def _lobby(request, campaign_form, join_form, status=200, import_form=None):
    memberships = (
        Membership.objects.filter(user=request.user)
        .select_related("campaign")
        .order_by("campaign__name", "campaign_id")
    )
    context = {
        "memberships": memberships,
        "campaign_form": campaign_form,
        "join_form": join_form,
        "import_form": import_form or ImportForm(),
    }
    return render(request, "web/lobby.html", context, status=status)


@login_required
@require_POST
def campaign_new(request):
    form = CampaignForm(request.POST)
    if form.is_valid():
        try:
            campaign = services.campaign_create(
                owner=request.user, name=form.cleaned_data["name"], game=form.cleaned_data["game"]
            )
        except ServiceError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, f"{campaign.name} is ready. You are its GM.")
            return redirect("web:room", campaign_id=campaign.pk)
    return _lobby(request, form, JoinForm(), status=400)


@login_required
@require_POST
def campaign_import(request):
    """A campaign from a backup archive, as a new campaign the importer is a
    GM of (docs/backup.md). Anyone logged in may, as anyone may start one."""
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["archive"]
        try:
            if upload.size > MAX_ARCHIVE_BYTES:
                raise ServiceError(
                    "too_large",
                    f"the archive must be at most {MAX_ARCHIVE_BYTES // 2**20} MB",
                    "archive",
                )
            campaign = import_campaign(upload.read(), owner=request.user)
        except ServiceError as exc:
            form.add_error("archive", exc.message)
        else:
            messages.success(request, f"{campaign.name} is imported. You are its GM.")
            return redirect("web:gm", campaign_id=campaign.pk)
    return _lobby(request, CampaignForm(), JoinForm(), status=400, import_form=form)


@login_required
@require_http_methods(["GET", "POST"])
def invite_join(request):
    """POST joins with a code. GET is the invite link a GM hands out
    (`/join/?code=...`): the lobby with the code filled in, so joining is
    one press after logging in (a link never joins by itself: a GET must
    change nothing)."""
    if request.method == "GET":
        return _lobby(
            request, CampaignForm(), JoinForm(initial={"code": request.GET.get("code", "")[:64]})
        )
    form = JoinForm(request.POST)
    # Codes are guessable one by one: too many wrong ones, and none is tried.
    lockout = join_lockout(request)
    if lockout is not None:
        form.full_clean()  # add_error needs a cleaned form
        form.add_error("code", lockout.message)
        response = _lobby(request, CampaignForm(), form, status=429)
        response["Retry-After"] = str(lockout.retry_after)
        return response
    if form.is_valid():
        try:
            membership = services.invite_accept(code=form.cleaned_data["code"], user=request.user)
        except ServiceError as exc:
            if isinstance(exc, NotFound):
                count_join_failure(request)
            add_service_error(form, exc)
        else:
            campaign = membership.campaign
            messages.success(
                request, f"You joined {campaign.name} as {membership.get_role_display()}."
            )
            return redirect("web:room", campaign_id=campaign.pk)
    return _lobby(request, CampaignForm(), form, status=400)
