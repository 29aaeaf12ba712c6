"""The chat page's forms (the paths that work without JavaScript). Limits match the API's."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from askapp.api.serializers import COMMENT_MAX, QUESTION_MAX, TITLE_MAX
from askapp.api.throttles import login_failed, login_wait
from askapp.models import Entity, Feedback
from askapp.permissions import PUBLIC_ONLY
from askapp.selectors.clearance import visible_entities


class AskForm(forms.Form):
    question = forms.CharField(
        max_length=QUESTION_MAX,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 2, "autocomplete": "off"}),
        error_messages={"required": "Type a question first."},
    )
    conversation = forms.UUIDField(required=False, widget=forms.HiddenInput)
    scope = forms.ModelChoiceField(
        queryset=Entity.objects.order_by("name"),
        to_field_name="name",
        required=False,
        empty_label="Any company",
        label="Company",
        help_text="Questions that name no company are about this one.",
    )

    def __init__(self, *args: Any, clearance: frozenset[str] = PUBLIC_ONLY, **kwargs: Any):
        """The company select lists, and accepts, only names the asker may learn exist: one
        known only from material above their clearance is as unknown as a made-up one."""
        super().__init__(*args, **kwargs)
        scope = self.fields["scope"]
        scope.queryset = visible_entities(clearance=clearance).order_by("name")  # type: ignore[attr-defined]


class RenameForm(forms.Form):
    title = forms.CharField(max_length=TITLE_MAX, required=False, label="Title")


class FeedbackForm(forms.Form):
    value = forms.ChoiceField(choices=Feedback.Value.choices)
    comment = forms.CharField(
        max_length=COMMENT_MAX,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Comment (optional)",
    )


class SearchForm(forms.Form):
    q = forms.CharField(max_length=200, required=False, label="Search conversations")


class _ThrottledLogin:
    """Refuses a login, before the password is checked, once the account or the client's
    address has failed ASKAPP_THROTTLE_LOGIN times in the window; counts each failure."""

    request: Any

    def clean(self) -> Any:
        username = str(self.cleaned_data.get("username") or "")  # type: ignore[attr-defined]
        wait = login_wait(self.request, username)
        if wait is not None:
            raise ValidationError(
                f"Too many failed logins: try again in {wait} seconds.", code="throttled"
            )
        try:
            return super().clean()  # type: ignore[misc]
        except ValidationError:
            login_failed(self.request, username)
            raise

    @property
    def throttled(self) -> bool:
        return any(e.code == "throttled" for e in self.non_field_errors().as_data())  # type: ignore[attr-defined]


class LoginForm(_ThrottledLogin, AuthenticationForm):
    pass


class AdminLoginForm(_ThrottledLogin, AdminAuthenticationForm):
    pass
