"""Canary phrases planted in the demo's INTERNAL and RESTRICTED documents (data/demo/documents).

A canary must never appear in an answer, a stream, a source list or the chat page while the
asker lacks clearance for its document. data/demo/README.md lists the same phrases.
"""

CANARY_INTERNAL = "CANARY-INTERNAL-3M8K copper lantern"
CANARY_RESTRICTED = "CANARY-RESTRICTED-7Q2X walnut harbour"
CANARY_RESTRICTED_TESLA = "CANARY-RESTRICTED-5V9D amber tollgate"

# The distinctive codes alone: a leak that rewords the phrase still carries one of these.
CANARY_CODES = {
    "INTERNAL": ("CANARY-INTERNAL-3M8K",),
    "RESTRICTED": ("CANARY-RESTRICTED-7Q2X", "CANARY-RESTRICTED-5V9D"),
}
ALL_CANARIES = (CANARY_INTERNAL, CANARY_RESTRICTED, CANARY_RESTRICTED_TESLA)
