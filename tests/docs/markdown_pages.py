"""tests/docs/markdown_pages.py -- the project's Markdown pages, for the docs
checks (relative_links.py, command_flags.py): README.md and every .md below
docs/, bench/, models/, runtime/, python/ and examples/ (hidden and build*
folders left out), files in name order within a folder.

    for path in pages(root, skip=("docs/notes",)): ...

`skip`: folders (relative to root) left out with everything below them.
"""
import os

TOPS = ("docs", "bench", "models", "runtime", "python", "examples")


def pages(root, skip=()):
    skipped = {os.path.join(root, s) for s in skip}
    yield os.path.join(root, "README.md")
    for top in TOPS:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build"))
                       and os.path.join(folder, d) not in skipped]
            for name in sorted(files):
                if name.endswith(".md"):
                    yield os.path.join(folder, name)
