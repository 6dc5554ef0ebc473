#!/usr/bin/env python3
"""Mechanical mutations of Swift source files, in scripts/mutations.txt's format (scripts/mutate.sh runs them).

    scripts/generate-mutations.py FILE... [--tests REGEX] > list.txt

For every code line (comments and string-bearing lines for arithmetic aside, and never inside a string literal, where
an operator is only message text) it plants, one at a time:
  * every comparison flipped at its boundary (< and <=, > and >=) and every == / != negated;
  * every binary + and - swapped (with spaces around it, as the house style writes them);
  * every && and || swapped;
  * every guard's and if's condition negated (single conditions only: no `let`, `case` or comma lists);
  * max( and min( swapped.
Each mutation replaces its whole line (`occurrence` tells identical lines apart), so it applies exactly once. Its id
is FILE-STEM-LINE-KIND-N; `tests:` is REGEX (default: the whole suite under --quick too).
"""
import re
import sys
from pathlib import Path

COMPARISONS = [(" < ", " <= "), (" <= ", " < "), (" > ", " >= "), (" >= ", " > "), (" == ", " != "), (" != ", " == ")]
ARITHMETIC = [(" + ", " - "), (" - ", " + ")]
LOGIC = [(" && ", " || "), (" || ", " && ")]
CALLS = [("max(", "min("), ("min(", "max(")]
CONDITION = re.compile(r"^(\s*)(guard|if) (.+?) (else \{|\{)\s*$")


def occurrences(text, part):
    at, start = [], 0
    while (i := text.find(part, start)) >= 0:
        at.append(i)
        start = i + len(part)
    return at


def literal_spans(code):
    """Indices inside string literals, their interpolations included: a comparison there only changes a message."""
    inside, depth, escaped, quoted = set(), 0, False, False
    for i, char in enumerate(code):
        if quoted:
            inside.add(i)
            if depth:
                depth += {"(": 1, ")": -1}.get(char, 0)
            elif escaped:
                escaped = False
                depth = 1 if char == "(" else 0
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
            inside.add(i)
    return inside


def mutants(line):
    """(kind, mutated line) for one line of code."""
    code = line.split("//")[0]
    if not code.strip() or code.lstrip().startswith(("import ", "@", "case ", "#")):
        return
    has_string = '"' in code
    literal = literal_spans(code)
    for kind, pairs in (("cmp", COMPARISONS), ("arith", ARITHMETIC), ("logic", LOGIC), ("call", CALLS)):
        if kind == "arith" and (has_string or "->" in code):
            continue
        for old, new in pairs:
            for i in occurrences(code, old):
                if i + 1 in literal:
                    continue
                # A generic bracket (`Array<Int>`) or an arrow is no comparison.
                if kind == "cmp" and old.strip() in "<>" and ("->" in code[i - 2:i + 3]):
                    continue
                yield kind, line[:i] + new + line[i + len(old):]
    match = CONDITION.match(code.rstrip())
    if match and not re.search(r"\blet\b|\bvar\b|\bcase\b|,|#available", match.group(3)):
        indent, word, condition, tail = match.groups()
        yield "not", f"{indent}{word} !({condition}) {tail}" + line[len(code.rstrip()):]


def main(argv):
    tests = ""
    files = []
    args = iter(argv)
    for arg in args:
        if arg == "--tests":
            tests = next(args, "")
        elif arg in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            files.append(arg)
    if not files:
        print(__doc__, file=sys.stderr)
        return 2
    for name in files:
        path = Path(name)
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        # mutate.sh finds a line's text anywhere in the file (a line can also end a longer one: `x = a` in
        # `    x = a`), so a line's occurrence is its rank among all the matches of its text, not among equal lines.
        starts, offset = [], 0
        for line in lines:
            starts.append(offset)
            offset += len(line) + 1
        in_block_comment = False
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if in_block_comment or stripped.startswith("/*"):
                in_block_comment = "*/" not in stripped
                continue
            if stripped.startswith("//"):
                continue
            planted = list(mutants(line))
            if not planted:
                continue
            matches = occurrences(text, line)
            rank = matches.index(starts[number - 1]) + 1 if starts[number - 1] in matches else 1
            for n, (kind, mutated) in enumerate(planted, 1):
                print(f"id: {path.stem}-{number}-{kind}-{n}")
                print(f"file: {name}")
                print(f"find: {line}")
                print(f"replace: {mutated}")
                if len(matches) > 1:
                    print(f"occurrence: {rank}")
                if tests:
                    print(f"tests: {tests}")
                print(f"why: generated ({kind}) at line {number}")
                print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
