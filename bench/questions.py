"""The structured lookups the benches ask, in turn: five demo figures, each found."""

LOOKUPS = [
    "What was Apple's revenue in FY2023?",
    "What was Microsoft's net income in FY2022?",
    "What was Tesla's revenue in FY2021?",
    "What was Apple's net income in FY2022?",
    "What was Microsoft's revenue in FY2023?",
]


# Ways to ask for one figure: each (company, metric, period) the demo holds, asked each way,
# is a question no other ask repeats.
FORMS = (
    "What was {entity}'s {metric} in {period}?",
    "What was the {metric} of {entity} in {period}?",
    "How much was {entity}'s {metric} in {period}?",
    "{entity} {metric} {period}",
    "Show me {entity}'s {metric} for {period}.",
    "What did {entity} report as {metric} in {period}?",
)


def distinct_lookups() -> list[str]:
    """Structured lookups, none asked twice: every figure of the demo's facts.csv in each
    of FORMS (about 7,500), in an order that moves between companies and forms."""
    import csv
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "data" / "demo" / "facts.csv"
    with path.open(newline="") as facts:
        rows = [(r["entity"], r["metric"].lower(), r["period"]) for r in csv.DictReader(facts)]
    rows = rows[::2] + rows[1::2]
    return [
        form.format(entity=entity, metric=metric, period=period)
        for n, (entity, metric, period) in enumerate(rows)
        for form in FORMS[n % len(FORMS) :] + FORMS[: n % len(FORMS)]
    ]
