"""Sign up and log in. Log out is Django's own view (by POST)."""

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.debug import sensitive_post_parameters

from vtt.accounts.login_limits import lockout_of

from ..forms import SignUpForm


@sensitive_post_parameters("password1", "password2")
def signup(request):
    if request.user.is_authenticated:
        return redirect("web:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("web:home")
    return render(request, "registration/signup.html", {"form": form})


class LoginForm(AuthenticationForm):
    """Django's log-in form, which tells a client over a log-in limit when
    it may try again rather than that the password was wrong."""

    def clean(self):
        try:
            return super().clean()
        except ValidationError:
            lockout = lockout_of(self.request)
            if lockout is None:
                raise
            raise ValidationError(lockout.message, code="too_many_attempts") from None


class LoginView(auth_views.LoginView):
    form_class = LoginForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        lockout = lockout_of(self.request)
        if lockout is not None:
            response.status_code = 429
            response["Retry-After"] = str(lockout.retry_after)
        return response
