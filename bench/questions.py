"""The structured lookups the benches ask, in turn: five demo figures, each found."""

LOOKUPS = [
    "What was Apple's revenue in FY2023?",
    "What was Microsoft's net income in FY2022?",
    "What was Tesla's revenue in FY2021?",
    "What was Apple's net income in FY2022?",
    "What was Microsoft's revenue in FY2023?",
]
