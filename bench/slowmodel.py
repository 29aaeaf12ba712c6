"""The slow model of the stream bench, in a process of its own (so that its threads share no
interpreter lock with the load generator, and its CPU can be read apart from the client's):

    python -m bench.slowmodel COUNT LOW HIGH

serves tests/fakes' OpenAI-compatible fake: WARM answers at once (the warm-up streams'), then
COUNT answers each held back LOW-HIGH seconds (seeded, so runs compare). Prints its base URL
on one line, then serves until its standard input closes.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fakes.openai_server import FakeOpenAIServer, slow, stream

WARM = 16
SLOW_ANSWER = "Apple's revenue dipped because iPhone sales fell [1]."


def holds(count: int, low: float, high: float, seed: int = 5) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(low, high) for _ in range(count)]


def main() -> None:
    count, low, high = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
    with FakeOpenAIServer() as model:
        model.reply(*[stream(SLOW_ANSWER) for _ in range(WARM)])
        model.reply(*[slow(s, stream(SLOW_ANSWER)) for s in holds(count, low, high)])
        print(model.base_url, flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
