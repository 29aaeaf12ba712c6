"""manage.py create_api_token <username>: the API token a script sends as
`Authorization: Token <key>`. Prints the user's token, creating it if missing."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from askapp.services.tokens import api_token_issue


class Command(BaseCommand):
    help = (
        "Print the API token of a user (creating it when the user has none). --rotate "
        "replaces an existing token, so the old key stops working at once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--rotate", action="store_true", help="Replace the user's token with a new one."
        )

    def handle(self, *args: Any, username: str, rotate: bool, **options: Any) -> None:
        try:
            user = get_user_model().objects.get_by_natural_key(username)
        except get_user_model().DoesNotExist:
            raise CommandError(f"No user is called {username!r}.") from None
        if not user.is_active:
            raise CommandError(f"The user {username!r} is inactive; a token would not work.")
        token, created = api_token_issue(user=user, rotate=rotate)
        self.stdout.write(token.key)
        state = "new" if created else "existing"
        self.stderr.write(
            f"This is {username}'s {state} API token: send it as 'Authorization: Token <key>'."
        )
