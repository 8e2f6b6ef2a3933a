"""Forms of the lobby and the accounts pages. Each form only parses; the
services decide."""

from django import forms
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


class JoinForm(forms.Form):
    code = forms.CharField(label="Invite code", max_length=32, strip=True)
