"""The chat page's forms (the paths that work without JavaScript). Limits match the API's."""

from __future__ import annotations

from typing import Any

from django import forms

from askapp.api.serializers import COMMENT_MAX, QUESTION_MAX, TITLE_MAX
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
