#!/usr/bin/env python3
"""tests/docs/command_flags.py -- every `lsdae SUBCOMMAND ... --flag` (and every
`lsdae-grid ... --flag`) that the project's Markdown pages show names a
subcommand that exists and a flag that the program's --help lists.

    python3 command_flags.py <source dir> <lsdae> [<lsdae-grid>]

Pages: README.md and every .md below docs/, bench/, models/, runtime/,
python/ and examples/, but not docs/notes/ (dated working notes: a record of
what was run then, not instructions). Commands: the lines of fenced and
indented code blocks (a trailing '\\' joins the next line) and the inline code
spans of the prose. A command starts at the word `lsdae` (or a path ending in
it: build/bin/lsdae) followed by a subcommand or an option, or `lsdae-grid`,
where only a prompt, variable assignments or a launcher stand before it
(`$`, `time`, `mpirun -np 4`, `python -m`: else `lsdae` is an argument of
another program or a word of prose), and ends at '|', ';', '&&', '||', a ' #'
comment or the end of the line; its flags are the words that start with '--'
(or '-' and one letter), up to an '='. Placeholders are skipped: `lsdae
<command>`, `--flag`, `--...`, `--<name>`.

The flags a program accepts are read from its --help (`lsdae --help` for the
global options and the subcommands, `lsdae SUB --help` for each subcommand;
`lsdae-grid --help`), so the check needs the `lsdae` binary only (and
`lsdae-grid` when given). Cost: one --help per subcommand, about 0.1 s.

The exit codes, too: the codes of README.md's table ("### Exit codes") are
those the footer of `lsdae --help` lists ("Exit codes: 0 ok, 1 ..."), no more,
no fewer.

And the other way round: every long option that a subcommand's --help (or
`lsdae-grid --help`) lists is named somewhere in the pages, in a command or
in prose or a table (short aliases such as -q are not asked for): an option
a user can only find by reading --help is an undocumented one.

Exit 1 with one line per drift (page:line: command → the flag or subcommand
that --help does not list → what to do), 0 when every command's flags exist
and the exit codes agree.
"""
import os
import re
import subprocess
import sys

import markdown_pages

FLAG = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")
HELP_FLAG = re.compile(r"(?:^|[\s,\[])(--?[A-Za-z][\w-]*)")
PLACEHOLDER_FLAGS = {"--flag", "--option", "--help", "-h"}


def pages(root):
    return markdown_pages.pages(root, skip=("docs/notes",))


def help_text(argv):
    try:
        run = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except OSError as e:
        sys.exit(f"command_flags.py: running {argv[0]} failed: {e} → build it first (scripts/build.sh lsdae)")
    return run.stdout + run.stderr


def flags_of(text):
    found = set()
    for line in text.splitlines():
        for m in HELP_FLAG.finditer(line):
            found.add(m.group(1))
    return found


def subcommands_of(top_help):
    subs, inside = set(), False
    for line in top_help.splitlines():
        if line.startswith("Subcommands:"):
            inside = True
        elif inside and line.strip() == "":
            break
        elif inside:
            subs.add(line.split()[0])
    return subs


def code_lines(path):
    """(line number, text) of each command-bearing piece: the lines of fenced
    and indented code blocks (a trailing backslash joins the next line), and
    the inline code spans of the prose (a span may cross a line break)."""
    fenced, indented, pending, start, previous_blank = False, False, "", 0, True
    prose = []                                   # (line number, text) of a paragraph

    def spans():
        text = "".join(line for _, line in prose)
        offsets = [(len("".join(l for _, l in prose[:k])), n) for k, (n, _) in enumerate(prose)]
        for m in re.finditer(r"(`+)(.+?)\1", text, re.S):
            number = max(n for at, n in offsets if at <= m.start())
            yield number, " ".join(m.group(2).split())
        prose.clear()

    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            stripped = line.strip()
            if stripped.startswith("```"):
                fenced = not fenced
                if pending:
                    yield start, pending
                pending, previous_blank = "", False
                yield from spans()
                continue
            indented = not fenced and stripped != "" and line.startswith(("    ", "\t")) \
                and (previous_blank or indented)
            previous_blank = stripped == ""
            if fenced or indented:
                yield from spans()
                if not pending:
                    start = number
                if stripped.endswith("\\"):
                    pending += stripped[:-1] + " "
                    continue
                yield start, pending + stripped
                pending = ""
            else:
                if pending:
                    yield start, pending
                    pending = ""
                if stripped == "":
                    yield from spans()
                else:
                    prose.append((number, line))
        yield from spans()


# What may stand before the program on its command line: a prompt, variable
# assignments, launchers and their options (`mpirun -np 4 lsdae sweep`,
# `python -m lsdae`); anything else (`compare_builds.py --base .../lsdae`, prose)
# makes `lsdae` an argument or a word, not a command.
LAUNCHER = re.compile(r"\$|>|\w+=\S*|-\S*|\d+|<\S*|time|/usr/bin/time|env|sudo|nohup|exec|"
                      r"timeout|mpirun|mpiexec|srun|gdb|valgrind|\S*python3?")
BEFORE = re.compile(r"\s(?:\||&&|\|\|)\s|\$\(|\(")             # where a command may begin
SEPARATOR = re.compile(r"\s(?:\||;|&&|\|\||#)\s?|[;|)]\s|\)$|\$\(")  # where it ends


def commands(text):
    """The command lines inside one piece of code: (program, subcommand, words)."""
    for m in re.finditer(r"(?<![\w.$-])(lsdae-grid|lsdae)(?![\w.-])", text):
        head = BEFORE.split(text[:m.start()])[-1].split()
        if head and head[-1].endswith("/"):       # build/bin/lsdae: the path's folder
            head.pop()
        if not all(LAUNCHER.fullmatch(w) for w in head):
            continue
        rest = SEPARATOR.split(text[m.end():])[0]
        words = rest.split()
        if m.group(1) == "lsdae-grid":
            yield "lsdae-grid", None, words
            continue
        if not words:
            continue
        first = words[0]
        if first.startswith("-"):
            yield "lsdae", None, words
        elif re.fullmatch(r"[a-z][a-z-]*", first):
            yield "lsdae", first, words[1:]


def exit_codes(root, top_help):
    """Drifts between README.md's exit-code table and `lsdae --help`'s footer."""
    documented, inside, line_of = set(), False, 0
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.startswith("#"):
                inside = line.strip() == "### Exit codes"
                line_of = number if inside else line_of
            elif inside:
                m = re.match(r"\|\s*(\d+)\s*\|", line)
                if m:
                    documented.add(int(m.group(1)))
    footer = re.search(r"Exit codes:([^.]*)\.", top_help)
    listed = {int(c) for c in re.findall(r"(?:^|,)\s*(\d+)\s", footer.group(1))} if footer else set()
    drifts = []
    for code in sorted(documented - listed):
        drifts.append(f"README.md:{line_of}: exit code {code} → `lsdae --help` does not list it "
                      f"(its footer: {sorted(listed)}) → add it to the footer (runtime/cli/program.cpp) or the table")
    for code in sorted(listed - documented):
        drifts.append(f"README.md:{line_of}: `lsdae --help` lists exit code {code} → the table does not "
                      f"→ add it to the table")
    if not documented or not listed:
        drifts.append(f"README.md:{line_of}: no exit codes read (table: {len(documented)}, footer: {len(listed)}) "
                      f"→ keep the heading '### Exit codes' and the footer 'Exit codes: 0 ok, ...'")
    return drifts


def check(root, lsdae, grid):
    top = help_text([lsdae, "--help"])
    subs = subcommands_of(top)
    accepted = {None: flags_of(top.split("Subcommands:")[0])}
    for sub in subs:
        accepted[sub] = flags_of(help_text([lsdae, sub, "--help"])) | accepted[None]
    grid_flags = flags_of(help_text([grid, "--help"])) | {"-o"} if grid and os.path.exists(grid) else None
    if grid and grid_flags is None:
        print(f"{grid} is not built: the lsdae-grid commands are not checked")

    drifts, checked = exit_codes(root, top), 0
    for page in pages(root):
        rel = os.path.relpath(page, root)
        for number, piece in code_lines(page):
            for program, sub, words in commands(piece):
                if program == "lsdae-grid":
                    if grid_flags is None:
                        continue
                    known, where = grid_flags, "lsdae-grid --help"
                else:
                    if sub is not None and sub not in subs:
                        # prose such as `lsdae is`, `lsdae and`: only a word that a
                        # subcommand-taking position shows with a flag or a file
                        if any(w.startswith("--") or w.endswith((".fmu", ".ssp", ".csv")) for w in words):
                            drifts.append(f"{rel}:{number}: `lsdae {sub} ...` → no subcommand '{sub}' "
                                          f"(lsdae --help lists {', '.join(sorted(subs))}) → use one of them")
                        continue
                    known, where = accepted[sub], f"lsdae {sub} --help" if sub else "lsdae --help"
                for word in words:
                    m = FLAG.match(word.strip("[](){}\"'`,"))
                    if not m or not word.lstrip("[(\"'`").startswith("-"):
                        continue
                    flag = m.group(1)
                    if flag in PLACEHOLDER_FLAGS or flag == "--" or re.fullmatch(r"-\d.*", flag):
                        continue
                    checked += 1
                    if flag not in known:
                        drifts.append(f"{rel}:{number}: `{program}{' ' + sub if sub else ''} ... {flag}` → "
                                      f"{where} does not list {flag} → correct the page (or the program)")
    drifts += undocumented(root, accepted, grid_flags)
    return drifts, checked


def undocumented(root, accepted, grid_flags):
    """The long options --help lists that no page names (the globals of `lsdae --help` too)."""
    text = "\n".join(open(p, encoding="utf-8").read() for p in pages(root))
    named = set(FLAG.findall(text))
    drifts = []
    listed = [(f"lsdae {sub} --help" if sub else "lsdae --help", flags) for sub, flags in sorted(
        accepted.items(), key=lambda kv: kv[0] or "")]
    if grid_flags is not None:
        listed.append(("lsdae-grid --help", grid_flags))
    for where, flags in listed:
        for flag in sorted(flags):
            if flag.startswith("--") and flag not in PLACEHOLDER_FLAGS and flag not in named:
                drifts.append(f"{where}: {flag} → no page names it → document it where the command's "
                              f"options are described (docs/user-guide/, docs/psse.md, ...)")
    return drifts


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    root = os.path.abspath(sys.argv[1])
    drifts, checked = check(root, sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    if checked == 0:
        drifts.append("no flag found in any page → the extraction of commands broke (this script)")
    for line in drifts:
        print(line)
    print(f"{checked} flags checked, {len(drifts)} drift(s)")
    return 1 if drifts else 0


if __name__ == "__main__":
    sys.exit(main())
