"""The chat page's forms (the paths that work without JavaScript). Limits match the API's."""

from __future__ import annotations

from django import forms

from askapp.api.serializers import COMMENT_MAX, QUESTION_MAX, TITLE_MAX
from askapp.models import Entity, Feedback


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
