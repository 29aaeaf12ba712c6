"""What every admin of the site shares: the doors around a changelist, kept shut.

- **URL lookups are an allow-list.** Django lets a changelist URL filter on any field of the
  model unless `lookup_allowed` says otherwise, so `?body__icontains=` told anyone which words
  a document held, one row at a time, and `?body__regex=((.*)*)*x` ran Python's regular
  expressions (SQLite's REGEXP) over every body while the process waited. An admin here
  answers only the parameters of the filters it offers (`allowed_lookups`), and never a
  regular expression, whatever the list says; anything else is a 400.
- **Search reads a bounded question**: at most SEARCH_WORDS words of SEARCH_CHARACTERS
  characters, so a URL cannot ask for a thousand joined LIKE scans.
- **A bulk action on a selection that names no row** (a malformed id) says so in a message
  and changes nothing, instead of failing with a 500.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.text import smart_split

SEARCH_WORDS = 8
SEARCH_CHARACTERS = 200
REGEX_LOOKUPS = frozenset({"regex", "iregex"})


def date_lookups(field: str) -> frozenset[str]:
    """The parameters of a date filter's links (today, past 7 days, this month...)."""
    return frozenset({f"{field}__gte", f"{field}__lt", f"{field}__isnull"})


def field_lookups(field: str) -> frozenset[str]:
    """The parameters of a plain field filter's links (a value, or none); a filter listing
    the values in use names the field alone."""
    return frozenset({field, f"{field}__exact", f"{field}__isnull"})


def related_lookups(field: str) -> frozenset[str]:
    """The parameters of a related-object filter's links (one object, or none)."""
    return frozenset({f"{field}__id__exact", f"{field}__isnull"})


class GuardedAdmin(admin.ModelAdmin):
    """A ModelAdmin whose changelist URL accepts only its own filters' parameters."""

    allowed_lookups: ClassVar[frozenset[str]] = frozenset()

    def lookup_allowed(self, lookup: str, value: Any, request: HttpRequest | None = None) -> bool:
        if REGEX_LOOKUPS & set(lookup.split("__")):
            return False
        return lookup in self.allowed_lookups

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        return super().get_search_results(request, queryset, bounded_search(search_term))

    def response_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        selected = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        if selected and not self._all_valid(selected):
            self.message_user(
                request,
                "The selection names no answer or row that exists (a malformed id); "
                "nothing was changed.",
                messages.ERROR,
            )
            return HttpResponseRedirect(request.get_full_path())
        response: HttpResponse | None = super().response_action(request, queryset)
        return response

    def _all_valid(self, selected: list[str]) -> bool:
        pk = self.model._meta.pk
        try:
            for value in selected:
                pk.to_python(value)  # type: ignore[union-attr]
        except (ValidationError, ValueError, TypeError):
            return False
        return True


def bounded_search(term: str) -> str:
    """The first SEARCH_WORDS words of the first SEARCH_CHARACTERS characters."""
    return " ".join(list(smart_split(term[:SEARCH_CHARACTERS]))[:SEARCH_WORDS])
