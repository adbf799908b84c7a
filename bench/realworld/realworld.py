"""Rebuild the real-code development sets from fetched git snapshots and score tfscope on them.

    .venv/bin/python bench/realworld/realworld.py repos
    .venv/bin/python bench/realworld/realworld.py extract --mirrors DIR   (or TFSCOPE_MIRRORS=DIR)
    .venv/bin/python bench/realworld/realworld.py score [--set precision|bugs|all] [--verbose] [--json]
    .venv/bin/python bench/realworld/realworld.py scan [--set GROUP] [--mirrors DIR] [--verbose] [--json]

Manifests and labels (precision/*.json, bugs.json, scans/*.json) are described in FORMAT.md.
Files are read with `git show COMMIT:PATH` out of bare snapshots at DIR/<owner>+<name>/ and
cached in .cache/; `scan` writes whole trees there with `git archive`. Findings come from the
same code path as `tfscope check` (one analysis per file, per-cell 1-based coordinates for
notebooks).
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
FALSE_SEVERITIES = ("error", "warning")  # info and hint findings never count as false
FAILED: list[str] = []  # files tfscope could not check (an engine error): reported, scored as no findings


# ---------------------------------------------------------------- manifests


@dataclass(frozen=True)
class FileRef:
    """One file of one repository at one commit, as the sets name it."""

    repo: str
    commit: str
    path: str
    keras_version: str = "auto"  # optional manifest field "keras_version": "2" | "3"

    @property
    def cached(self) -> Path:
        return CACHE / self.repo.replace("/", "+") / self.commit / self.path

    @property
    def root(self) -> Path:
        return CACHE / self.repo.replace("/", "+") / self.commit


def load_precision() -> list[dict]:
    """Every file entry of precision/*.json, with its group."""
    entries = []
    for manifest in sorted((HERE / "precision").glob("*.json")):
        data = json.loads(manifest.read_text())
        for entry in data.get("files", []):
            entries.append({**entry, "group": data.get("group", manifest.stem)})
    return entries


def load_bugs() -> list[dict]:
    """Every bug of bugs.json and bugs-<group>.json (one file per miner keeps edits apart)."""
    return [bug for path in sorted(HERE.glob("bugs*.json")) for bug in json.loads(path.read_text()).get("bugs", [])]


def precision_ref(entry: dict) -> FileRef:
    return FileRef(entry["repo"], entry["commit"], entry["path"], entry.get("keras_version", "auto"))


def bug_refs(bug: dict) -> tuple[FileRef, FileRef]:
    """(file before the fix, file after it)."""
    keras = bug.get("keras_version", "auto")
    before = FileRef(bug["repo"], bug["before_commit"], bug["path"], keras)
    after = FileRef(bug["repo"], bug["fix_commit"], bug.get("after_path") or bug["path"], keras)
    return before, after


def context_refs(repo: str, commit: str, entry: dict) -> list[FileRef]:
    """Optional "context_paths": sibling modules extracted beside the file (for imports), not scored."""
    return [FileRef(repo, commit, path) for path in entry.get("context_paths", [])]


def all_refs() -> list[FileRef]:
    refs = []
    for entry in load_precision():
        refs += [precision_ref(entry), *context_refs(entry["repo"], entry["commit"], entry)]
    for bug in load_bugs():
        refs.extend(bug_refs(bug))
        for commit in (bug["before_commit"], bug["fix_commit"]):
            refs.extend(context_refs(bug["repo"], commit, bug))
    return list(dict.fromkeys(refs))


# ---------------------------------------------------------------- repos / extract


def cmd_repos(_: argparse.Namespace) -> None:
    """The repositories a rebuild needs (fetch each as github:<owner>/<name>)."""
    scanned = {entry["repo"] for scan in load_scans().values() for entry in scan["repos"]}
    for repo in sorted({ref.repo for ref in all_refs()} | scanned):
        print(repo)


def mirrors_folder(args: argparse.Namespace) -> Path | None:
    """--mirrors or $TFSCOPE_MIRRORS, when it names a folder."""
    given = args.mirrors or os.environ.get("TFSCOPE_MIRRORS")
    return Path(given).expanduser() if given and Path(given).expanduser().is_dir() else None


def find_git_dir(mirrors: Path, repo: str) -> Path | None:
    """The bare git directory somewhere inside DIR/<owner>+<name>/."""
    base = mirrors / repo.replace("/", "+")
    if not base.is_dir():
        return None
    for candidate in [base, *sorted(path.parent for path in base.rglob("HEAD"))]:
        if (candidate / "objects").is_dir() and (candidate / "HEAD").is_file():
            return candidate
    return None


# What tfscope reads for the Keras/TensorFlow version beside and above a file (as in real use).
_DECLARATION = re.compile(r"(?:^|/)(?:requirements[\w.-]*\.(?:txt|in)|constraints[\w.-]*\.txt|pyproject\.toml|setup\.(?:py|cfg)"
                          r"|environment\.ya?ml|Pipfile(?:\.lock)?|poetry\.lock|(?:docker/)?Dockerfile(?:\.[\w.-]+)?)$")


def declaration_refs(refs: list[FileRef], git_dirs: dict) -> list[FileRef]:
    """The dependency declarations in each file's folder and the folders above it (and their
    docker/), and the `__init__.py` that makes each of those folders a package (how an import
    reaches the file), at the file's commit."""
    found = []
    for repo, commit in sorted({(ref.repo, ref.commit) for ref in refs}):
        git_dir = git_dirs.get(repo)
        if git_dir is None:
            continue
        listing = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "--name-only", commit],
                                 capture_output=True, text=True).stdout.splitlines()
        folders = {str(Path(part)) for ref in refs if (ref.repo, ref.commit) == (repo, commit)
                   for part in [*Path(ref.path).parents]}
        for path in listing:
            folder = str(Path(path).parent)
            package = Path(path).name == "__init__.py" and folder in folders
            if package or (_DECLARATION.search(path) and (folder in folders or (Path(folder).name == "docker"
                                                                                and str(Path(folder).parent) in folders))):
                found.append(FileRef(repo, commit, path))
    return found


def git_show(git_dir: Path, commit: str, path: str) -> bytes | None:
    result = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"], capture_output=True)
    return result.stdout if result.returncode == 0 else None


def cmd_extract(args: argparse.Namespace) -> None:
    mirrors = mirrors_folder(args)
    if mirrors is None:
        sys.exit("extract: give --mirrors DIR or set TFSCOPE_MIRRORS (the folder fetch puts snapshots in)")
    refs = all_refs()
    git_dirs = {repo: find_git_dir(mirrors, repo) for repo in sorted({ref.repo for ref in refs})}
    refs += declaration_refs(refs, git_dirs)
    written = present = 0
    unreadable = []
    for ref in refs:
        git_dir = git_dirs[ref.repo]
        if ref.cached.exists():
            present += 1
            continue
        if git_dir is None:
            continue
        data = git_show(git_dir, ref.commit, ref.path)
        if data is None:
            unreadable.append(ref)
            continue
        ref.cached.parent.mkdir(parents=True, exist_ok=True)
        ref.cached.write_bytes(data)
        written += 1
    for root in {ref.root for ref in refs if ref.root.is_dir()}:
        # a snapshot is a repository's tree: walks inside it (the project's files tfscope reads)
        # stop at its root, as in a clone, instead of obeying the ignore rules of tfscope's checkout
        (root / ".git").mkdir(exist_ok=True)
    missing = [repo for repo, git_dir in git_dirs.items() if git_dir is None]
    print(f"extracted {written} files, {present} already cached, into {CACHE.relative_to(HERE.parent.parent)}")
    for ref in unreadable:
        print(f"not in the snapshot: {ref.repo} {ref.commit}:{ref.path} (fetch a newer snapshot?)")
    if missing:
        print(f"{len(missing)} repositories not fetched (fetch github:<owner>/<name>, then extract again):")
        for repo in missing:
            print(f"  {repo}")


# ---------------------------------------------------------------- running tfscope


def run_tfscope(ref: FileRef) -> list[dict] | None:
    """Findings for a cached file as `tfscope check` reports them, or None when not cached."""
    from tfscope import cli
    from tfscope.config import DEFAULT_SETTINGS

    if not ref.cached.exists():
        return None
    settings = replace(DEFAULT_SETTINGS, root=str(ref.root), keras_version=ref.keras_version)
    job = cli.FileJob(str(ref.cached), ref.path, settings, fix=False, diff=False, unsafe_fixes=False)
    result = cli.check_file(job)
    if result.error is not None:
        FAILED.append(f"{ref.repo} {ref.path}@{ref.commit[:10]}: {result.error}")
    return [
        {"code": f.code, "severity": f.severity, "line": f.location.row, "cell": f.cell, "message": f.message}
        for f in result.findings
    ]


def counts(finding: dict) -> bool:
    return finding["severity"] in FALSE_SEVERITIES


def statement_lines(ref: FileRef, line: int, cell: int | None) -> set[int]:
    """The lines of the statement that starts at ``line`` (a compound statement's header only):
    a bug's fix moves the whole statement, and tfscope reports the expression that creates the
    object, which in a multi-line statement can sit on a later line."""
    try:
        text = ref.cached.read_text(encoding="utf-8", errors="replace")
        if cell is not None:
            source = json.loads(text)["cells"][cell - 1]["source"]
            text = "".join(source) if isinstance(source, list) else source
        tree = ast.parse(text)
    except (OSError, ValueError, SyntaxError, IndexError, KeyError):
        return {line}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == line:
            body = getattr(node, "body", None)
            last = body[0].lineno - 1 if isinstance(body, list) and body else node.end_lineno
            return set(range(line, max(line, last) + 1))
    return {line}


def at(finding: dict, line: int, cell: int | None) -> bool:
    return finding["line"] == line and finding["cell"] == cell


# ---------------------------------------------------------------- scoring


def score_precision(verbose: bool) -> dict:
    """TP / FP / FN per rule, and the findings on unlabelled lines."""
    per_rule: dict[str, dict[str, int]] = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0})
    problems = {"fp": [], "fn": [], "unlabelled": [], "not_cached": []}
    for entry in load_precision():
        ref = precision_ref(entry)
        findings = run_tfscope(ref)
        where = f"{ref.repo} {ref.path}@{ref.commit[:10]}"
        if findings is None:
            problems["not_cached"].append(where)
            continue
        labels = entry.get("labels", [])
        for label in labels:
            cell = label.get("cell")
            here = [f for f in findings if at(f, label["line"], cell) and counts(f)]
            verdict = label["verdict"]
            if verdict == "misplaced":
                codes = label.get("codes", [])
                matched = [f for f in here if f["code"] in codes]
                if matched:
                    per_rule[matched[0]["code"]]["tp"] += 1
                else:
                    per_rule[codes[0] if codes else "?"]["fn"] += 1
                    problems["fn"].append(row(where, label["line"], cell, "/".join(codes), label.get("note", ""), here))
            elif verdict in ("ok", "unnecessary-inside"):
                for finding in here:
                    per_rule[finding["code"]]["fp"] += 1
                    problems["fp"].append(row(where, finding["line"], cell, finding["code"], finding["message"]))
        labelled = {(label["line"], label.get("cell")) for label in labels}
        for finding in findings:
            if (finding["line"], finding["cell"]) not in labelled and (counts(finding) or verbose):
                problems["unlabelled"].append(row(where, finding["line"], finding["cell"], finding["code"], finding["message"]))
    return {"per_rule": dict(per_rule), **problems}


def score_bugs(verbose: bool) -> dict:
    """Per rule: bugs found in the before file, missed, and fixes whose after file is not clean."""
    per_rule: dict[str, dict[str, int]] = defaultdict(lambda: {"found": 0, "missed": 0, "after_not_clean": 0})
    problems = {"missed": [], "after_not_clean": [], "found": [], "not_cached": []}
    for bug in load_bugs():
        before, after = bug_refs(bug)
        code = bug["codes"][0]
        before_findings, after_findings = run_tfscope(before), run_tfscope(after)
        where = f"{bug['repo']} {bug['path']}@{bug['before_commit'][:10]}"
        if before_findings is None or after_findings is None:
            problems["not_cached"].append(where)
            continue
        line, cell = bug["before_line"], bug.get("before_cell")
        lines = statement_lines(before, line, cell)
        here = [f for f in before_findings if any(at(f, n, cell) for n in lines) and counts(f)]
        matched = [f for f in here if f["code"] in bug["codes"]]
        rule = matched[0]["code"] if matched else code
        per_rule[rule]["found" if matched else "missed"] += 1
        target = problems["found" if matched else "missed"]
        target.append(row(where, line, cell, "/".join(bug["codes"]), bug.get("note", ""), before_findings if not matched else ()))
        dirty = [f for f in after_findings if counts(f)]
        if dirty:
            per_rule[rule]["after_not_clean"] += 1
            for finding in dirty:
                problems["after_not_clean"].append(
                    row(f"{bug['repo']} {after.path}@{after.commit[:10]}", finding["line"], finding["cell"], finding["code"], finding["message"])
                )
    if not verbose:
        problems.pop("found")
    return {"per_rule": dict(per_rule), **problems}


def row(where: str, line: int, cell: int | None, code: str, text: str, findings=()) -> dict:
    place = f"cell {cell}:{line}" if cell is not None else str(line)
    seen = ", ".join(f"{f['code']}@{'' if f['cell'] is None else str(f['cell']) + ':'}{f['line']}" for f in findings if counts(f))
    return {"where": f"{where}:{place}", "code": code, "text": text, "tfscope_reported": seen}


# ---------------------------------------------------------------- printing


def print_table(per_rule: dict, columns: tuple[tuple[str, str, int], ...]) -> list[int]:
    """One row per rule and a total; ``columns`` are (heading, key, width). Returns the totals."""
    print(f"{'rule':8} " + " ".join(f"{heading:>{width}}" for heading, _, width in columns))
    totals = [0] * len(columns)
    for code, figures in sorted(per_rule.items()):
        values = [figures[key] for _, key, _ in columns]
        totals = [a + b for a, b in zip(totals, values)]
        print(f"{code:8} " + " ".join(f"{value:{width}}" for value, (_, _, width) in zip(values, columns)))
    print(f"{'all':8} " + " ".join(f"{total:{width}}" for total, (_, _, width) in zip(totals, columns)))
    return totals


def print_precision(result: dict) -> str:
    print("== precision set")
    totals = print_table(result["per_rule"], (("TP", "tp", 4), ("FP", "fp", 4), ("FN", "fn", 4)))
    print_rows("false positives", result["fp"])
    print_rows("false negatives (misplaced, not reported)", result["fn"])
    print_rows("findings on unlabelled lines (label them)", result["unlabelled"])
    print_rows("files not cached (run extract)", [{"where": w, "code": "", "text": ""} for w in result["not_cached"]])
    tp, fp, fn = totals
    precision = f"{tp / (tp + fp):.2f}" if tp + fp else "n/a"
    recall = f"{tp / (tp + fn):.2f}" if tp + fn else "n/a"
    return f"precision set: TP {tp}, FP {fp}, FN {fn} (precision {precision}, recall {recall}), {len(result['unlabelled'])} unlabelled"


def print_bugs(result: dict) -> str:
    print("== real bugs")
    totals = print_table(result["per_rule"], (("found", "found", 6), ("missed", "missed", 7),
                                              ("after-not-clean", "after_not_clean", 16)))
    if "found" in result:
        print_rows("found", result["found"])
    print_rows("missed", result["missed"])
    print_rows("after the fix, still reported (warning/error)", result["after_not_clean"])
    print_rows("bugs not cached (run extract)", [{"where": w, "code": "", "text": ""} for w in result["not_cached"]])
    found, missed, dirty = totals
    return f"bugs: found {found}/{found + missed}, missed {missed}, after not clean {dirty}"


def print_rows(title: str, rows: list[dict]) -> None:
    if not rows:
        return
    print(f"-- {title}: {len(rows)}")
    for item in rows:
        extra = f"  [tfscope: {item['tfscope_reported']}]" if item.get("tfscope_reported") else ""
        print(f"  {item['where']}  {item['code']}  {item['text']}{extra}")


def cmd_score(args: argparse.Namespace) -> None:
    results, summary = {}, []
    if args.set in ("precision", "all"):
        results["precision"] = score_precision(args.verbose)
    if args.set in ("bugs", "all"):
        results["bugs"] = score_bugs(args.verbose)
    failed = sorted(set(FAILED))
    if args.json:
        print(json.dumps({**results, "tfscope_errors": failed}, indent=2))
        return
    if "precision" in results:
        summary.append(print_precision(results["precision"]))
    if "bugs" in results:
        summary.append(print_bugs(results["bugs"]))
    print_rows("files tfscope could not check (scored as no findings)", [{"where": f, "code": "", "text": ""} for f in failed])
    summary.append(f"{len(failed)} files tfscope could not check")
    print("SUMMARY: " + "; ".join(summary))


# ---------------------------------------------------------------- whole-repository scans

SCANS = HERE / "scans"
MAX_BLOB_BYTES = 3_000_000  # bigger blobs are data or outputs (and often absent from a snapshot), not code
PATHS_PER_ARCHIVE = 1000  # git archive takes the paths as arguments: a big tree goes in several calls
# What a whole-tree check reads: the code, tfscope's settings and what the Keras/TensorFlow version is read from.
_TREE_FILE = re.compile(r"^(?:.*\.(?:py|ipynb|toml|cfg|ya?ml|Dockerfile)"
                        r"|(?:requirements|constraints|Pipfile|Dockerfile|README).*|poetry\.lock)$")
VERDICTS = ("tp", "fp", "unsure")


def load_scans() -> dict[str, dict]:
    """scans/<group>.json by group."""
    return {path.stem: json.loads(path.read_text()) for path in sorted(SCANS.glob("*.json"))}


def scan_tree(repo: str, commit: str) -> Path:
    return CACHE / "scans" / f"{repo.replace('/', '+')}@{commit[:12]}"


def git(git_dir: Path, *command: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(git_dir), *command], capture_output=True, check=True).stdout


def materialise_tree(git_dir: Path, commit: str, tree: Path, excluded: set[str]) -> None:
    """The tree's source and declaration files at ``commit`` (but ``excluded``) written to ``tree``,
    with an empty `.git/` at its root (walks inside it obey its ignore rules, as in a clone)."""
    paths = []
    for entry in git(git_dir, "ls-tree", "-r", "-l", "-z", commit).split(b"\0"):
        if not entry:
            continue
        meta, raw_path = entry.split(b"\t", 1)
        mode, _, _, size = meta.split()
        path = os.fsdecode(raw_path)
        # regular files only: a submodule has no blob here, a symbolic link may point out of the tree;
        # a size of "BAD" is a blob the snapshot lacks, on which git archive would fail
        if mode in (b"100644", b"100755") and size.isdigit() and int(size) <= MAX_BLOB_BYTES \
                and _TREE_FILE.match(Path(path).name) and path not in excluded:
            paths.append(path)
    partial = tree.with_name(tree.name + ".partial")  # renamed when complete: an interrupted run leaves no half tree
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    for start in range(0, len(paths), PATHS_PER_ARCHIVE):
        archive = git(git_dir, "--literal-pathspecs", "archive", "--format=tar", commit, "--",
                      *paths[start:start + PATHS_PER_ARCHIVE])
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(partial, filter="data")
    (partial / ".git").mkdir()
    partial.rename(tree)


def tree_settings(tree: Path, errors: list[str]):
    """Settings per folder as `tfscope check` finds them, with the tree as the project root."""
    from tfscope.config import DEFAULT_SETTINGS, load_settings_for

    base = replace(DEFAULT_SETTINGS, root=str(tree))
    by_folder = {}

    def settings_for(path: Path):
        folder = path if path.is_dir() else path.parent
        if folder not in by_folder:
            settings, problems, config = load_settings_for(folder, base)
            # the cache sits inside tfscope's checkout: a configuration above the tree is not the repository's
            in_tree = config is not None and tree in config.parents
            by_folder[folder] = settings if in_tree else base
            errors.extend(f"{tree.name}: {problem}" for problem in problems if in_tree)
        return by_folder[folder]

    return settings_for


def check_tree(repo: str, commit: str, tree: Path) -> dict:
    """Files checked, warning/error findings and files tfscope could not check, for a whole tree as
    `tfscope check TREE` reports them."""
    from tfscope import cli
    from tfscope.files import discover

    errors: list[str] = []
    settings_for = tree_settings(tree, errors)
    files = discover([tree], settings_for).files
    jobs = [cli.FileJob(str(path), path.relative_to(tree).as_posix(), settings_for(path), fix=False, diff=False,
                        unsafe_fixes=False, show_fixes=False) for path in files]
    findings = []
    for result in cli.check_files(jobs):
        if result.error is not None:
            errors.append(f"{repo} {result.display_path}@{commit[:10]}: {result.error}")
        findings += [{"repo": repo, "path": result.display_path, "cell": f.cell, "line": f.location.row, "code": f.code,
                      "severity": f.severity, "message": f.message} for f in result.findings if f.severity in FALSE_SEVERITIES]
    return {"files": len(files), "findings": findings, "errors": errors}


def verdict_key(item: dict) -> tuple:
    return item["repo"], item["path"], item.get("cell"), item["line"], item["code"]


def run_scan(group: str, scan: dict, mirrors: Path | None) -> dict:
    """Every repository of the set checked whole, its findings compared with the verdicts."""
    trees, not_fetched, not_in_snapshot = {}, [], []
    for entry in scan["repos"]:
        repo, commit = entry["repo"], entry["commit"]
        tree = scan_tree(repo, commit)
        if not tree.is_dir():
            git_dir = find_git_dir(mirrors, repo) if mirrors is not None else None
            if git_dir is None:
                not_fetched.append(repo)
                continue
            try:
                materialise_tree(git_dir, commit, tree, set(entry.get("exclude", [])))
            except subprocess.CalledProcessError:
                not_in_snapshot.append(f"{repo} {commit}")
                continue
        trees[repo] = (commit, tree)
    # a fresh process per tree, as each clone gets its own `tfscope check`
    with ProcessPoolExecutor(max_tasks_per_child=1) as pool:
        checks = list(pool.map(check_tree, trees, *zip(*trees.values())))
    FAILED.extend(error for check in checks for error in check["errors"])
    findings = [finding for check in checks for finding in check["findings"]]
    checked = set(trees)
    reported = {verdict_key(finding) for finding in findings}
    verdicts = {verdict_key(item): item for item in scan.get("verdicts", []) if item["repo"] in checked}
    states = {verdict: {"reported": [], "gone": []} for verdict in VERDICTS}
    for key, item in verdicts.items():
        states[item["verdict"]]["reported" if key in reported else "gone"].append(item)
    return {
        "group": group, "repos": len(checked), "files": sum(check["files"] for check in checks), "findings": findings,
        "verdicts": states,
        "unlabelled": [finding for finding in findings if verdict_key(finding) not in verdicts],
        "not_fetched": not_fetched, "not_in_snapshot": not_in_snapshot,
    }


def print_scan(result: dict, verbose: bool) -> str:
    print(f"== scan {result['group']}: {result['repos']} repositories, {result['files']:,} files")
    states = result["verdicts"]
    print(f"{'verdict':8} {'reported':>9} {'gone':>5}")
    for verdict in VERDICTS:
        print(f"{verdict:8} {len(states[verdict]['reported']):9} {len(states[verdict]['gone']):5}")
    shown = [("false positives still reported", states["fp"]["reported"]),
             ("true positives no longer reported", states["tp"]["gone"])]
    if verbose:
        shown += [("true positives still reported", states["tp"]["reported"]),
                  ("unsure, still reported", states["unsure"]["reported"]),
                  ("false positives no longer reported", states["fp"]["gone"]),
                  ("unsure, no longer reported", states["unsure"]["gone"])]
    for title, items in shown:
        print_rows(title, [scan_row(item, item["note"]) for item in items])
    print_rows("findings with no verdict (read and label them before reporting figures)",
               [scan_row(finding, f"[{finding['severity']}] {finding['message']}") for finding in result["unlabelled"]])
    print_rows("commits not in the snapshot (fetch a newer snapshot?)",
               [{"where": where, "code": "", "text": ""} for where in result["not_in_snapshot"]])
    if result["not_fetched"]:
        print(f"-- repositories not fetched (fetch github:<owner>/<name> into --mirrors DIR, then scan again): "
              f"{len(result['not_fetched'])}")
        for repo in result["not_fetched"]:
            print(f"  {repo}")
    tp, fp, unsure = (len(states[verdict]["reported"]) for verdict in VERDICTS)
    return (f"scan {result['group']}: {result['repos']} repos, {result['files']:,} files, "
            f"{len(result['findings'])} warnings: TP {tp}, FP {fp}, unsure {unsure}, unlabelled {len(result['unlabelled'])}")


def scan_row(item: dict, text: str) -> dict:
    place = f"cell {item['cell']}:{item['line']}" if item.get("cell") is not None else str(item["line"])
    return {"where": f"{item['repo']} {item['path']}:{place}", "code": item["code"], "text": text}


def cmd_scan(args: argparse.Namespace) -> None:
    scans = load_scans()
    groups = [args.set] if args.set else list(scans)
    mirrors = mirrors_folder(args)
    results = [run_scan(group, scans[group], mirrors) for group in groups]
    failed = sorted(set(FAILED))
    if args.json:
        print(json.dumps({"scans": results, "tfscope_errors": failed}, indent=2))
        return
    summary = [print_scan(result, args.verbose) for result in results]
    print_rows("files tfscope could not check (scanned as no findings)", [{"where": f, "code": "", "text": ""} for f in failed])
    summary.append(f"{len(failed)} files tfscope could not check")
    print("SUMMARY: " + "; ".join(summary))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("repos", help="list the repositories to fetch").set_defaults(run=cmd_repos)
    extract = commands.add_parser("extract", help="read the files out of fetched snapshots into .cache/")
    extract.add_argument("--mirrors", help="folder of snapshots (DIR/<owner>+<name>/...); default $TFSCOPE_MIRRORS")
    extract.set_defaults(run=cmd_extract)
    score = commands.add_parser("score", help="run tfscope on the cached files and print the figures")
    score.add_argument("--set", choices=("precision", "bugs", "all"), default="all")
    score.add_argument("--verbose", action="store_true", help="also list found bugs and info/hint findings")
    score.add_argument("--json", action="store_true")
    score.set_defaults(run=cmd_score)
    scan = commands.add_parser("scan", help="check whole repositories of a scan set and compare with its verdicts")
    scan.add_argument("--set", choices=sorted(load_scans()), help="one scan set (scans/<group>.json); default every set")
    scan.add_argument("--mirrors", help="folder of snapshots, for trees not cached yet; default $TFSCOPE_MIRRORS")
    scan.add_argument("--verbose", action="store_true", help="also list every verdict still reported or gone")
    scan.add_argument("--json", action="store_true")
    scan.set_defaults(run=cmd_scan)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
