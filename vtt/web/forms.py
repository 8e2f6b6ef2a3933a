"""Forms of the lobby and the accounts pages. Each form only parses; the
services decide."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from vtt import games


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class CampaignForm(forms.Form):
    name = forms.CharField(label="Campaign name", max_length=120)
    game = forms.ChoiceField(label="Game", choices=games.choices)


class ImportForm(forms.Form):
    archive = forms.FileField(label="Campaign archive (.zip, from Download backup)")


class ImportReviewForm(forms.Form):
    """An import's second step: the new campaign's name and, for each of the
    archive's users, the account here that takes their place (empty: not
    kept). Parsed into cleaned_data["members"]: archive id -> account."""

    name = forms.CharField(label="Name of the imported campaign", max_length=120)

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.members = list(members)
        for member in self.members:
            self.fields[self.field_of(member)] = forms.CharField(
                label=f"{member.username} ({member.role or 'not a member'})",
                required=False,
                max_length=150,
                widget=forms.TextInput(attrs={"list": "import-people", "autocomplete": "off"}),
            )

    @staticmethod
    def field_of(member) -> str:
        return f"member_{member.id}"

    def member_fields(self):
        return [(member, self[self.field_of(member)]) for member in self.members]

    def clean(self):
        data = super().clean()
        User = get_user_model()
        kept, taken = {}, {}
        for member in self.members:
            field = self.field_of(member)
            username = (data.get(field) or "").strip()
            if not username:
                continue
            account = User.objects.filter(**{User.USERNAME_FIELD: username}, is_active=True).first()
            if account is None:
                self.add_error(field, f"there is no user {username!r} here")
            elif account.pk in taken:
                self.add_error(field, f"{username} already takes {taken[account.pk]}'s place")
            else:
                kept[member.id] = account
                taken[account.pk] = member.username
        data["members"] = kept
        return data


class JoinForm(forms.Form):
    code = forms.CharField(label="Invite code", max_length=32, strip=True)
