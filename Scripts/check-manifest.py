#!/usr/bin/env python3
"""Checks that Package.swift says exactly what each target imports (`make test` runs it).

SwiftPM's own `--explicit-target-dependency-import-check error` is also passed by `make test`, but
on this toolchain it reports nothing even for a test target that imports a package module it does
not declare, so the rule is enforced here from the sources:

- every `import M` of a module of this package (a target) or of a package product is declared as a
  direct dependency of the importing target: no module arrives only transitively;
- every declared target or product dependency is imported by some source of the target
  (executable targets are exempt: tests depend on them to have the binary built, not to import it);
- targets are listed in dependency order: each target's dependencies come before it;
- the README's architecture table has a row for every module and executable, and its "depends on"
  column names exactly the package's modules that Package.swift declares for it.

Exits 1 and lists the problems, or prints one line and exits 0.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Modules that come with the toolchain or the system, not from Package.swift.
TOOLCHAIN = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Darwin", "Musl",
             "XCTest", "Testing", "Synchronization", "_Concurrency", "Observation", "os", "RegexBuilder",
             "CoreFoundation", "FoundationXML"}
IMPORT = re.compile(r"^(?:@[\w_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][\w]*)")


def main():
    manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                                         capture_output=True, text=True).stdout)
    targets = manifest["targets"]
    names = {t["name"] for t in targets}
    kinds = {t["name"]: t["type"] for t in targets}
    order = {t["name"]: i for i, t in enumerate(targets)}
    problems = []
    for target in targets:
        name = target["name"]
        declared_targets, declared_products = set(), set()
        for dependency in target["dependencies"]:
            if "byName" in dependency:
                declared_targets.add(dependency["byName"][0])
            elif "target" in dependency:
                declared_targets.add(dependency["target"][0])
            elif "product" in dependency:
                declared_products.add(dependency["product"][0])
        for dependency in sorted(declared_targets):
            if dependency in order and order[dependency] > order[name]:
                problems.append(f"{name}: listed before its dependency {dependency} (list targets in dependency order)")
        if kinds[name] == "system":
            continue
        folder = target.get("path") or os.path.join("Tests" if kinds[name] == "test" else "Sources", name)
        excluded = [os.path.join(ROOT, folder, e) for e in target.get("exclude", [])]
        imported = {}
        for directory, _, files in os.walk(os.path.join(ROOT, folder)):
            if any(directory.startswith(e) for e in excluded):
                continue
            for file in files:
                if not file.endswith(".swift"):
                    continue
                path = os.path.join(directory, file)
                with open(path, encoding="utf-8") as source:
                    for number, line in enumerate(source, 1):
                        match = IMPORT.match(line)
                        if match:
                            imported.setdefault(match.group(1), f"{os.path.relpath(path, ROOT)}:{number}")
        for module, where in sorted(imported.items()):
            if module in TOOLCHAIN or module == name:
                continue
            if module in names:
                if module not in declared_targets:
                    problems.append(f"{where}: {name} imports {module} without declaring it")
            elif module not in declared_products:
                problems.append(f"{where}: {name} imports {module}, which is neither declared nor a toolchain module")
        for dependency in sorted(declared_targets | declared_products):
            if dependency not in imported and kinds.get(dependency) != "executable":
                problems.append(f"{name}: declares {dependency} but never imports it")
    problems += readme_problems(targets, kinds)
    if problems:
        print("Package.swift does not match the imports:", *problems, sep="\n  ")
        sys.exit(1)
    print(f"Package.swift matches the imports of all {len(targets)} targets, listed in dependency order; the README's architecture table matches it.")


def readme_problems(targets, kinds):
    """The README's architecture table against the manifest."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as readme:
        text = readme.read()
    section = text.split("## Architecture", 1)[-1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`") and cells[0].endswith("`"):
            rows[cells[0].strip("`")] = cells[2]
    modules = [t["name"] for t in targets if kinds[t["name"]] in ("regular", "executable")]
    problems = []
    for target in targets:
        name = target["name"]
        if name not in modules:
            continue
        if name not in rows:
            problems.append(f"README.md: the architecture table has no row for {name}")
            continue
        declared = set()
        for dependency in target["dependencies"]:
            for key in ("byName", "target"):
                if key in dependency and kinds.get(dependency[key][0]) in ("regular", "executable"):
                    declared.add(dependency[key][0])
        listed = {m for m in modules if re.search(r"(?<![\w`])" + re.escape(m) + r"(?![\w])", rows[name])}
        if listed != declared:
            problems.append(f"README.md: {name} depends on {', '.join(sorted(declared)) or 'nothing'} in Package.swift, "
                            f"the architecture table says {', '.join(sorted(listed)) or 'nothing'}")
    return problems


if __name__ == "__main__":
    main()
