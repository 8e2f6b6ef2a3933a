"""The first page: a landing for visitors, the lobby for members (their
campaigns with their role, a new campaign, joining by invite code)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from vtt.accounts.join_limits import count_join_failure, join_lockout
from vtt.core.errors import NotAllowed
from vtt.records.backup import import_campaign, max_archive_bytes, uploads
from vtt.records.backup.restore import imported_name, preview_import
from vtt.tabletop import services
from vtt.tabletop.models import Membership
from vtt.tabletop.services import NotFound, ServiceError

from ..forms import CampaignForm, ImportForm, ImportReviewForm, JoinForm
from ..service_errors import add_service_error

# The session's key for the archive waiting for its import to be confirmed.
PENDING_IMPORT = "pending_import"


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
        "may_import": uploads.may_import(request.user),
        "import_by": settings.CAMPAIGN_IMPORT_BY,
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
    """An import's first step: the archive uploaded and judged whole, then
    kept while its importer names the copy and chooses whom to keep
    (docs/backup.md). Who may, and how often, are settings."""
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _lobby(request, CampaignForm(), JoinForm(), status=400, import_form=form)
    upload = form.cleaned_data["archive"]
    try:
        uploads.check_may_import(request.user)
        uploads.count_upload(request.user)
        if upload.size > max_archive_bytes():
            raise ServiceError(
                "too_large",
                f"the archive must be at most {settings.IMPORT_MAX_ARCHIVE_MB} MB",
                "archive",
            )
        preview = preview_import(upload)
    except ServiceError as exc:
        return _import_refused(request, form, exc)
    uploads.discard(request.session.pop(PENDING_IMPORT, None))
    request.session[PENDING_IMPORT] = uploads.stage(upload)
    initial = {"name": imported_name(preview.name)}
    for member in preview.members:
        # By default only the importer is kept, if the archive knows them.
        if member.username == request.user.get_username():
            initial[ImportReviewForm.field_of(member)] = member.username
    review = ImportReviewForm(members=preview.members, initial=initial)
    return _review(request, review, preview)


@login_required
@require_POST
def campaign_import_confirm(request):
    """An import's second step: the staged archive imported under the name
    and with the members the importer chose."""
    staged = uploads.staged(request.session.get(PENDING_IMPORT))
    if staged is None:
        gone = ServiceError("gone", "the uploaded archive is no longer here: upload it again")
        return _import_refused(request, None, gone)
    with staged:
        try:
            uploads.check_may_import(request.user)
            preview = preview_import(staged)
        except ServiceError as exc:
            return _import_refused(request, None, exc)
        form = ImportReviewForm(request.POST, members=preview.members)
        if form.is_valid():
            try:
                campaign = import_campaign(
                    staged,
                    owner=request.user,
                    name=form.cleaned_data["name"],
                    members=form.cleaned_data["members"],
                )
            except ServiceError as exc:
                add_service_error(form, exc)
            else:
                uploads.discard(request.session.pop(PENDING_IMPORT, None))
                messages.success(request, f"{campaign.name} is imported. You are its GM.")
                return redirect("web:gm", campaign_id=campaign.pk)
    return _review(request, form, preview, status=400)


def _import_refused(request, form, exc: ServiceError):
    """The lobby again, the refusal on the upload's field (a form of its own
    when the refusal came after the upload's request)."""
    if form is None:
        form = ImportForm(data={})
        form.is_valid()
        form.errors["archive"] = form.error_class([exc.message])
    else:
        form.add_error("archive", exc.message)
    status = 400
    if isinstance(exc, NotAllowed):
        status = 403
    elif exc.code == "rate_limited":
        status = 429
    answer = _lobby(request, CampaignForm(), JoinForm(), status=status, import_form=form)
    if status == 429:
        answer["Retry-After"] = str(exc.retry_after)
    return answer


def _review(request, form, preview, status=200):
    """The page that names the copy and maps its members; the people the
    importer plays with are offered as accounts to keep them as."""
    mine = Membership.objects.filter(user=request.user).values("campaign_id")
    people = (
        Membership.objects.filter(campaign_id__in=mine, user__is_active=True)
        .values_list("user__username", flat=True)
        .distinct()
        .order_by("user__username")
    )
    context = {"form": form, "preview": preview, "people": list(people)}
    return render(request, "web/import_review.html", context, status=status)


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
