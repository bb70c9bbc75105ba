"""Copies the screenshots the tests took into the docs, for `make screenshots`.

    python scripts/screenshots.py build/screenshots docs/screenshots

Only the pictures the docs already have are replaced (docs/screenshots.md links to them): a test's new
picture is listed, and joins the docs when someone copies it there and links it. Fails, copying
nothing, when a picture the docs have was not taken (its test skipped, or no longer takes it).
"""

import shutil
import sys
from pathlib import Path


def main(taken: Path, docs: Path) -> int:
    wanted = sorted(path.name for path in docs.glob("*.png"))
    made = {path.name for path in taken.glob("*.png")}
    missing = [name for name in wanted if name not in made]
    if missing:
        print(f"Not taken by the tests, so nothing was copied: {', '.join(missing)}", file=sys.stderr)
        print("(was Chromium there? did their tests skip? see the summary above)", file=sys.stderr)
        return 1
    for name in wanted:
        shutil.copyfile(taken / name, docs / name)
    print(f"Copied {len(wanted)} screenshots from {taken} to {docs}.")
    new = sorted(made - set(wanted))
    if new:
        print(f"Taken but not in {docs} (copy by hand to add them): {', '.join(new)}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
