#!/usr/bin/env python3
"""tests/docs/relative_links.py -- every relative link of the project's Markdown
pages reaches its file, and a link to a section (page.md#anchor) reaches a
heading of that page, by GitHub's rule for anchors (lower case; punctuation
other than '-' and '_' dropped; spaces to '-'; a repeated heading gets -1, -2).

    python3 relative_links.py <source dir>

Pages: README.md and every .md below docs/, bench/, models/, runtime/,
python/ and examples/ (build trees and .git left out). Links inside fenced
code blocks and inline code are not links; a target without '/', '.' or '#'
(`r[1](10)` in a formula) is not one either. Exit 1 with one line per broken
link (page:line: target → what is wrong), 0 when every link reaches.
"""
import os
import re
import sys

from markdown_pages import pages

LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def slug(text):
    text = re.sub(r"`", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen, fenced = set(), {}, False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.lstrip().startswith("```"):
                    fenced = not fenced
                    continue
                m = None if fenced else HEADING.match(line)
                if m:
                    s = slug(m.group(2))
                    n = seen.get(s, 0)
                    found.add(s if n == 0 else f"{s}-{n}")
                    seen[s] = n + 1
        cache[path] = found
    return cache[path]


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    broken = []
    checked = 0
    for page in pages(root):
        if not os.path.exists(page):
            continue
        fenced = False
        with open(page, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.lstrip().startswith("```"):
                    fenced = not fenced
                    continue
                if fenced:
                    continue
                for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
                    target = m.group(1)
                    if re.match(r"[a-z]+:", target) or not any(c in target for c in "/.#"):
                        continue
                    checked += 1
                    path, _, anchor = target.partition("#")
                    where = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                    rel = os.path.relpath(page, root)
                    if not os.path.exists(where):
                        broken.append(f"{rel}:{number}: {target} → no such file")
                    elif anchor and where.endswith(".md") and anchor not in anchors(where):
                        broken.append(f"{rel}:{number}: {target} → no heading with that anchor in "
                                      f"{os.path.relpath(where, root)}")
    for line in broken:
        print(line)
    print(f"{checked} relative links checked, {len(broken)} broken")
    if broken:
        print("→ point each link at the page or heading as it is now (a moved section keeps no anchor)")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
