"""The ``tfscope`` command: ``check`` files and folders, print ``rule`` docs, ``serve`` the language server."""

from __future__ import annotations

import argparse
import ast
import difflib
import functools
import json
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NamedTuple, Sequence

from tfscope import __version__
from tfscope.collector import collector_paused
from tfscope.config import (
    CONFIG_FILE_NAMES,
    KERAS_VERSIONS,
    Settings,
    glob_problem,
    is_known_selector,
    load_config_file,
    load_settings_for,
    rule_docs_url,
    with_rule_overrides,
)
from tfscope.diagnostics import Diagnostic, Fix, Severity
from tfscope.engine import (
    Analysis,
    analyze,
    analyze_following_imports,
    edited_source,
    fix_until_stable,
    noqa_fix,
    validated_fixes,
)
from tfscope.files import (
    Discovery,
    ReadError,
    SourceFile,
    discover,
    read_source_file,
    repository_root,
    source_file_from_bytes,
    write_text,
)
from tfscope.notebook import updated_notebook
from tfscope.output import FORMATTERS, SHOWS_FIXES, SHOWS_NOQA_ROWS, Finding, finding_for
from tfscope.output import text as text_output
from tfscope.resolve.project import ProjectResolver
from tfscope.rules import Rule, all_rules, get_rule
from tfscope.rules.docs import rule_text
from tfscope.source import Source

# A worker process pays off past this much source (about 0.2 s of analysis); less runs in-process.
BYTES_PER_WORKER = 256 * 1024
CHUNKS_PER_WORKER = 4  # chunks of about equal size: a worker that drew big files does not hold up the end
EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    return args.run(args, parser)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tfscope", description="Catch tf.distribute strategy-scope placement mistakes, and fix them."
    )
    parser.add_argument("--version", action="version", version=f"tfscope {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="check .py files and .ipynb notebooks (default: the current folder)")
    check.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to check (default: the current folder; `-`: standard input)")
    check.add_argument("--output-format", choices=sorted(FORMATTERS), default="text")
    check.add_argument("--select", action="append", type=_codes, metavar="CODES",
                       help="comma-separated rule codes or prefixes to enable (replaces the configured selection)")
    check.add_argument("--extend-select", action="append", type=_codes, metavar="CODES",
                       help="rule codes or prefixes to enable on top of the selection")
    check.add_argument("--ignore", action="append", type=_codes, metavar="CODES",
                       help="rule codes or prefixes to disable")
    check.add_argument("--fix", action="store_true", help="apply safe fixes and write the files")
    check.add_argument("--unsafe-fixes", action="store_true", help="also apply (and count as fixable) unsafe fixes")
    check.add_argument("--diff", action="store_true", help="print the fixes as a unified diff instead of writing them")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    check.add_argument("--statistics", action="store_true", help="print how often each rule fired instead of each finding")
    check.add_argument("--config", type=Path, metavar="PATH",
                       help="use this pyproject.toml / tfscope.toml instead of discovering the nearest one")
    check.add_argument("--keras-version", choices=KERAS_VERSIONS, help="Keras version to assume when the code does not tell")
    check.add_argument("--stdin-filename", metavar="PATH",
                       help="read the code from standard input (PATH `-`, or no PATH) and report it as this file")
    check.add_argument("--output-file", "-o", type=Path, metavar="FILE", help="write the report to FILE instead of standard output")
    check.add_argument("--watch", "-w", action="store_true", help="check again whenever a checked file or configuration changes")
    check.add_argument("--add-noqa", action="store_true",
                       help="add a `# noqa: CODE` comment for every finding (to adopt tfscope on existing code)")
    check.add_argument("--show-fixes", action="store_true", help="list the fixes applied (with --fix) or available")
    quiet = check.add_mutually_exclusive_group()
    quiet.add_argument("--quiet", "-q", action="store_true", help="print the findings only, no summary")
    quiet.add_argument("--silent", "-s", action="store_true",
                       help="print no findings (only errors, on standard error); the exit code still tells")
    check.add_argument("--extend-exclude", action="append", type=_globs, metavar="GLOBS",
                       help="comma-separated globs of files and folders to leave out, on top of `exclude`")
    check.add_argument("--respect-gitignore", action=argparse.BooleanOptionalAction, default=None,
                       help="leave out what .gitignore, .ignore and .git/info/exclude ignore (default: on)")
    check.add_argument("--force-exclude", action=argparse.BooleanOptionalAction, default=None,
                       help="apply the exclusions to files named on the command line too (for pre-commit)")
    check.set_defaults(run=_run_check)

    rule = commands.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("code", nargs="?", help="a rule code, e.g. TFS001")
    rule.add_argument("--all", action="store_true", help="print every rule")
    rule.add_argument("--output-format", choices=("text", "json"), default="text")
    rule.set_defaults(run=_run_rule)

    serve = commands.add_parser("serve", help="run the language server (stdio unless --tcp)")
    serve.add_argument("--tcp", type=_host_port, metavar="HOST:PORT", help="listen on TCP instead of stdio")
    serve.add_argument("--log-file", type=Path, metavar="FILE", help="also write the server log to FILE")
    serve.set_defaults(run=_run_serve)
    return parser


def _codes(value: str) -> tuple[str, ...]:
    codes = tuple(code.strip().upper() for code in value.split(",") if code.strip())
    if not codes:  # `--select ""` would silently turn every rule off
        raise argparse.ArgumentTypeError("expected comma-separated rule codes or prefixes, got none")
    return codes


def _globs(value: str) -> tuple[str, ...]:
    globs = tuple(glob.strip() for glob in value.split(",") if glob.strip())
    problems = [problem for glob in globs if (problem := glob_problem(glob))]
    if not globs or problems:
        raise argparse.ArgumentTypeError("; ".join(problems) or "expected comma-separated globs, got none")
    return globs


def _host_port(value: str) -> str:
    """``HOST:PORT`` or ``PORT``, checked here so a typo is a usage error; the server parses it."""
    if not value.rpartition(":")[2].isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    return value


# ---------------------------------------------------------------- check


class FileJob(NamedTuple):
    path: str
    display_path: str
    settings: Settings
    fix: bool  # apply fixes (and write, unless diff)
    diff: bool
    unsafe_fixes: bool
    stdin: bytes | None = None  # the text, read from standard input: fixes are printed, never written
    add_noqa: bool = False
    show_fixes: bool = True  # the report shows each finding's fix: validate them (else they cost nothing)
    show_noqa_rows: bool = False  # the report shows where each finding's `# noqa` would go


@dataclass
class FileResult:
    display_path: str
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None
    fixed: int = 0
    diff: str = ""
    syntax_error: str | None = None  # "row:col: message" of the first error when the file does not fully parse
    fixed_codes: dict[str, int] = field(default_factory=dict)  # rule code -> how many findings --fix fixed
    fixed_text: str | None = None  # standard input with --fix: the fixed text to print
    noqa_added: int = 0


class SettingsResolver:
    """Settings per file: the nearest ``[tool.tfscope]`` (or ``--config``), then the command line."""

    def __init__(self, args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
        self.errors: dict[str, None] = {}  # ordered and unique: many files share one pyproject
        self._by_folder: dict[Path, Settings] = {}
        self._select = _flatten(args.select)
        self._extend_select = _flatten(args.extend_select) or ()
        self._ignore = _flatten(args.ignore) or ()
        self._keras_version = args.keras_version
        self._file_options = {
            key: value
            for key, value in (
                ("extend_exclude", _flatten(args.extend_exclude)),
                ("respect_gitignore", args.respect_gitignore),
                ("force_exclude", args.force_exclude),
            )
            if value is not None
        }
        for option, codes in (("--select", self._select), ("--extend-select", self._extend_select), ("--ignore", self._ignore)):
            unknown = [code for code in codes or () if not is_known_selector(code)]
            if unknown:
                parser.error(f"{option}: unknown rule code {', '.join(unknown)}")
        self._explicit: Settings | None = None
        if args.config is not None:
            if not args.config.is_file():
                parser.error(f"--config: no such file: {args.config}")
            settings, errors = load_config_file(args.config)
            self.errors.update(dict.fromkeys(errors))
            self._explicit = self._with_command_line(settings)

    def for_path(self, path: Path) -> Settings:
        if self._explicit is not None:
            return self._explicit
        folder = path if path.is_dir() else path.parent
        if folder not in self._by_folder:
            settings, errors, _ = load_settings_for(folder)
            self.errors.update(dict.fromkeys(errors))
            self._by_folder[folder] = self._with_command_line(settings)
        return self._by_folder[folder]

    def _with_command_line(self, settings: Settings) -> Settings:
        settings = with_rule_overrides(settings, self._select, self._extend_select, self._ignore)
        options = dict(self._file_options)
        if "extend_exclude" in options:
            options["extend_exclude"] = settings.extend_exclude + options["extend_exclude"]
        if self._keras_version:
            options["keras_version"] = self._keras_version
        return replace(settings, **options)


def _flatten(groups: list[tuple[str, ...]] | None) -> tuple[str, ...] | None:
    return None if groups is None else tuple(code for group in groups for code in group)


WATCH_POLL_SECONDS = 0.5


def _run_check(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if not args.watch:
        return _check_once(args, parser)
    if args.fix or args.diff or args.add_noqa or args.paths == ["-"] or args.stdin_filename:
        parser.error("--watch cannot be combined with --fix, --diff, --add-noqa or standard input")
    try:
        while True:
            print(f"[{time.strftime('%H:%M:%S')}] Checking in watch mode...", file=sys.stderr, flush=True)
            before = _watched_state(args, parser)  # taken first: an edit during the check counts
            _check_once(args, parser)
            sys.stdout.flush()
            print("Watching for file changes.", file=sys.stderr, flush=True)
            while _watched_state(args, parser) == before:
                time.sleep(WATCH_POLL_SECONDS)
    except KeyboardInterrupt:
        return EXIT_CLEAN


def _watched_state(args: argparse.Namespace, parser: argparse.ArgumentParser) -> dict[str, float]:
    """Modification times of the files a check would read, and of configuration files beside them."""
    resolver = SettingsResolver(args, parser)
    files = discover(args.paths or ["."], resolver.for_path).files
    folders = {path.parent for path in files} | {Path(path) for path in args.paths or ["."] if Path(path).is_dir()}
    candidates = [*files, *(folder / name for folder in folders for name in CONFIG_FILE_NAMES)]
    if args.config is not None:
        candidates.append(args.config)
    state = {}
    for path in candidates:
        try:
            state[str(path)] = path.stat().st_mtime_ns
        except OSError:
            continue
    return state


def _check_once(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    resolver = SettingsResolver(args, parser)
    if args.add_noqa and (args.fix or args.diff):
        parser.error("--add-noqa cannot be combined with --fix or --diff")
    reads_stdin = args.paths == ["-"] or (not args.paths and args.stdin_filename is not None)
    if "-" in args.paths and not reads_stdin:
        parser.error("`-` (standard input) cannot be combined with other paths")
    show_fixes = _report_shows_fixes(args)
    show_noqa_rows = args.output_format in SHOWS_NOQA_ROWS and not args.statistics
    if reads_stdin:
        path = Path(args.stdin_filename or "-")
        discovery = Discovery([], [], [])
        jobs = [FileJob(os.path.abspath(path), _display_path(path), resolver.for_path(path),
                        args.fix or args.diff, args.diff, args.unsafe_fixes, stdin=sys.stdin.buffer.read(),
                        add_noqa=args.add_noqa, show_fixes=show_fixes, show_noqa_rows=show_noqa_rows)]
    else:
        discovery = discover(args.paths or ["."], resolver.for_path)
        jobs = [
            FileJob(os.path.abspath(path), _display_path(path), resolver.for_path(path), args.fix or args.diff,
                    args.diff, args.unsafe_fixes, add_noqa=args.add_noqa, show_fixes=show_fixes,
                    show_noqa_rows=show_noqa_rows)
            for path in discovery.files
        ]
    missing = discovery.missing
    results = _check_all(jobs)
    # with --fix, the fixed standard input goes to stdout (as ruff does), the report to stderr
    rewrites_stdin = reads_stdin and (args.fix or args.add_noqa) and not args.diff
    report_stream = sys.stderr if rewrites_stdin else sys.stdout
    if rewrites_stdin and results and results[0].fixed_text is not None:
        sys.stdout.write(results[0].fixed_text)
    elif rewrites_stdin:
        sys.stdout.buffer.write(jobs[0].stdin)  # nothing changed (or unreadable): passed through
    for message in resolver.errors:
        print(f"error: {message}", file=sys.stderr)
    for path in missing:
        print(f"{path}: error: no such file or directory", file=sys.stderr)
    for path, reason in discovery.skipped:
        print(f"{_display_path(Path(path))}: error: {reason}", file=sys.stderr)
    for result in results:
        if result.error is not None:
            print(f"{result.display_path}: error: {result.error}", file=sys.stderr)
        elif result.syntax_error is not None:
            print(
                f"{result.display_path}:{result.syntax_error}; the code that parses was analysed, findings may be missing",
                file=sys.stderr,
            )
    findings = sorted((finding for result in results for finding in result.findings), key=lambda finding: finding.sort_key)
    fixed = sum(result.fixed for result in results)
    failed = bool(resolver.errors or missing or discovery.skipped or any(result.error is not None for result in results))

    if args.add_noqa:
        added = sum(result.noqa_added for result in results)
        print(f"Added {added} noqa directive{'s' if added != 1 else ''}.", file=sys.stderr)
        return EXIT_ERROR if failed else EXIT_CLEAN

    if args.diff:
        _write_report("".join(result.diff for result in results), args)
        noun = "finding" if fixed == 1 else "findings"
        print(f"Would fix {fixed} {noun}." if fixed else "No findings would be fixed.", file=sys.stderr)
        changed = any(result.diff for result in results)
        return EXIT_ERROR if failed else EXIT_FINDINGS if changed else EXIT_CLEAN

    unchecked = len(missing) + len(discovery.skipped) + sum(result.error is not None for result in results)
    unparsed = sum(result.syntax_error is not None for result in results)
    report = "" if args.silent else _report(findings, fixed, args, unchecked, unparsed)
    if args.show_fixes and args.output_format in ("text", "concise") and not args.silent:
        report += _fixes_report(results, findings, args)
    _write_report(report, args, report_stream)
    if failed:
        return EXIT_ERROR
    # hints (TFS009, TFS010) are advice: shown, but they never fail a CI run or a commit hook;
    # a syntax error fails the run as a finding does (as in ruff): the file was only partly analysed
    failing = unparsed or any(finding.severity != Severity.HINT.value for finding in findings)
    return EXIT_FINDINGS if failing and not args.exit_zero else EXIT_CLEAN


def _report_shows_fixes(args: argparse.Namespace) -> bool:
    """Whether the report prints the findings' fixes (a diff or added noqa comments print no findings)."""
    if args.silent or args.diff or args.add_noqa:
        return False
    return args.show_fixes or args.statistics or args.output_format in SHOWS_FIXES


def _write_report(text: str, args: argparse.Namespace, stream=None) -> None:
    if args.output_file is not None:
        args.output_file.parent.mkdir(parents=True, exist_ok=True)
        args.output_file.write_text(text, encoding="utf-8")
    else:
        (stream or sys.stdout).write(text)


def _fixes_report(results: list[FileResult], findings: list[Finding], args: argparse.Namespace) -> str:
    """``--show-fixes``: per file and rule, what --fix fixed, or (without --fix) what it would fix."""
    names = {rule.code: rule.name for rule in all_rules()}
    if args.fix:
        per_file = {result.display_path: result.fixed_codes for result in results if result.fixed_codes}
        title = "Fixed"
    else:
        per_file: dict[str, dict[str, int]] = {}
        for finding in findings:
            if text_output.is_fixable(finding, args.unsafe_fixes):
                codes = per_file.setdefault(finding.display_path, {})
                codes[finding.code] = codes.get(finding.code, 0) + 1
        title = "Would fix"
    if not per_file:
        return ""
    total = sum(sum(codes.values()) for codes in per_file.values())
    lines = [f"\n{title} {total} finding{'s' if total != 1 else ''}:"]
    for path, codes in sorted(per_file.items()):
        lines.append(f"- {path}:")
        lines.extend(f"    {count} × {code} ({names.get(code, '')})" for code, count in sorted(codes.items()))
    return "\n".join(lines) + "\n"


def _report(findings: list[Finding], fixed: int, args: argparse.Namespace, unchecked: int, unparsed: int = 0) -> str:
    if args.statistics:
        if args.output_format == "json":
            return _statistics_json(findings, args.unsafe_fixes)
        return text_output.statistics(findings, args.unsafe_fixes)
    output = FORMATTERS[args.output_format](findings, args.unsafe_fixes)
    if args.output_format in ("text", "concise") and not args.quiet:
        output += text_output.summary(findings, fixed, args.unsafe_fixes, args.fix, unchecked, unparsed)
    return output


def _statistics_json(findings: list[Finding], unsafe_fixes: bool) -> str:
    rows: dict[str, dict] = {}
    for finding in findings:
        row = rows.setdefault(finding.code, {"code": finding.code, "name": finding.name, "count": 0, "fixable": True})
        row["count"] += 1
        row["fixable"] = row["fixable"] and text_output.is_fixable(finding, unsafe_fixes)
    ordered = sorted(rows.values(), key=lambda row: (-row["count"], row["code"]))
    return json.dumps(ordered, indent=2) + "\n"


def _display_path(path: Path) -> str:
    """Relative to the working folder when inside it (as ruff prints), else absolute."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(absolute)


def _check_all(jobs: list[FileJob]) -> list[FileResult]:
    """Every job's result, in job order: in this process for a little code, else on every core."""
    sizes = [_job_size(job) for job in jobs]
    workers = min(len(jobs), _cores(), sum(sizes) // BYTES_PER_WORKER)
    if workers <= 1:
        return [check_file(job) for job in jobs]
    from concurrent.futures import ProcessPoolExecutor  # a run too small for workers skips its import

    chunks = _chunks(list(range(len(jobs))), sizes, workers * CHUNKS_PER_WORKER)
    results: list[FileResult | None] = [None] * len(jobs)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        done = pool.map(check_files, [[jobs[index] for index in chunk] for chunk in chunks])
        for chunk, chunk_results in zip(chunks, done):
            for index, result in zip(chunk, chunk_results):
                results[index] = result
    return results


def check_files(jobs: list[FileJob]) -> list[FileResult]:
    """One worker process's task: a chunk of jobs, in order."""
    return [check_file(job) for job in jobs]


def _cores() -> int:
    """The cores this process may run on (a container or `taskset` may allow fewer than the machine has)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _job_size(job: FileJob) -> int:
    if job.stdin is not None:
        return len(job.stdin)
    try:
        return os.stat(job.path).st_size
    except OSError:
        return 0  # check_file reports why it cannot be read


def _chunks(indexes: list[int], sizes: list[int], count: int) -> list[list[int]]:
    """``indexes`` cut into about ``count`` runs of about equal total size, biggest first (they start
    first, so the small ones fill the gaps at the end)."""
    target = max(1, sum(sizes) // count)
    chunks: list[list[int]] = []
    current: list[int] = []
    current_size = 0
    for index in indexes:
        current.append(index)
        current_size += sizes[index]
        if current_size >= target:
            chunks.append(current)
            current, current_size = [], 0
    if current:
        chunks.append(current)
    return sorted(chunks, key=lambda chunk: -sum(sizes[index] for index in chunk))


_PROJECT_RESOLVERS: dict[tuple[str, str | None], ProjectResolver] = {}


def _project_resolver(settings: Settings, path: Path) -> ProjectResolver:
    """One jedi-backed resolver per project and interpreter in each worker process (its cache is shared)."""
    key = (settings.root or _project_root(path), settings.interpreter)
    if key not in _PROJECT_RESOLVERS:
        _PROJECT_RESOLVERS[key] = ProjectResolver(root=key[0], interpreter=settings.interpreter)
    return _PROJECT_RESOLVERS[key]


def _project_root(path: Path) -> str:
    """Where no setting names the root: the working folder, or, for a file of a repository the
    working folder is not inside (`tfscope check ../clone`), that repository's root."""
    return _project_root_of(os.path.dirname(os.path.abspath(path)), os.getcwd())


@functools.lru_cache(maxsize=256)
def _project_root_of(folder: str, working: str) -> str:
    """``_project_root`` of the files of ``folder`` (a run's files share a few folders)."""
    if Path(folder) == Path(working) or Path(working) in Path(folder).parents:
        return working
    return str(repository_root(Path(folder)) or working)


def check_file(job: FileJob) -> FileResult:
    """Analyse one file (fixing it first when asked); never raises, a failure becomes ``error``."""
    # the collector resumes once the file's analyses are gone, not while they are alive: it
    # would scan every node of their trees and models to find that nothing is garbage
    with collector_paused():
        return _check_file(job)


def _check_file(job: FileJob) -> FileResult:
    result = FileResult(job.display_path)
    path = Path(job.path)
    try:
        source_file = read_source_file(path) if job.stdin is None else source_file_from_bytes(path, job.stdin)
    except ReadError as error:
        result.error = str(error)
        return result
    try:
        source = source_file.source
        project = _project_resolver(job.settings, path)
        analysis = analyze_following_imports(source, job.settings, project)
        if analysis.unanalysable is not None:
            result.error = f"could not be analysed: {analysis.unanalysable}"
            return result
        if not analysis.parsed_cleanly:
            result.syntax_error = _first_syntax_error(source)
        if job.add_noqa:
            analysis, result.noqa_added = _add_noqa(analysis)
            if analysis.source.text != source.text:
                if job.stdin is not None:
                    result.fixed_text = _fixed_text(source_file, analysis.source)
                else:
                    _write_or_diff(path, source_file, analysis.source, job, result)
        elif job.fix:
            before = Counter(diagnostic.code for diagnostic in analysis.diagnostics)
            analysis, result.fixed = fix_until_stable(analysis, unsafe=job.unsafe_fixes)
            after = Counter(diagnostic.code for diagnostic in analysis.diagnostics)
            result.fixed_codes = dict(sorted((before - after).items()))
            if job.stdin is not None:
                result.fixed_text = _fixed_text(source_file, analysis.source)
                if job.diff and analysis.source.text != source.text:
                    result.diff = _unified_diff(source_file.source, analysis.source, job.display_path)
            elif analysis.source.text != source.text:
                _write_or_diff(path, source_file, analysis.source, job, result)
        shown = validated_fixes(analysis) if job.show_fixes else [[] for _ in analysis.diagnostics]
        result.findings = [
            replace(
                finding_for(
                    analysis.source,
                    diagnostic,
                    _fix_to_show(fixes, job.unsafe_fixes),
                    job.path,
                    job.display_path,
                    _noqa_offset(analysis, diagnostic) if job.show_noqa_rows else None,
                ),
                url=rule_docs_url(job.settings, diagnostic.code),
            )
            for diagnostic, fixes in zip(analysis.diagnostics, shown)
        ]
    except Exception as error:  # an engine bug must not stop the other files
        result.error = f"internal error while checking: {type(error).__name__}: {error}"
    return result


def _first_syntax_error(source: Source) -> str:
    """``[cell N:]row:col: syntax error: message`` of Python's first complaint (the engine analysed around it)."""
    try:
        compile(source.code, source.path or "<file>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        row, column = max(error.lineno or 1, 1), max(error.offset or 1, 1)
        offset = min(source.line_start(min(row, source.line_count) - 1) + column - 1, len(source.text))
        cell = source.cell_at(offset) if source.is_notebook else None
        if cell is not None:
            row = row - source.position(cell.start)[0]
            return f"cell {cell.index + 1}:{row}:{column}: syntax error: {error.msg}"
        return f"{row}:{column}: syntax error: {error.msg}"
    except (ValueError, RecursionError, MemoryError) as error:
        return f"1:1: syntax error: {error}"
    return "1:1: syntax error"


def _fix_to_show(fixes: list[Fix], unsafe_fixes: bool) -> Fix | None:
    """The fix ``--fix`` would apply, else the preferred one (ruff lists unsafe fixes too)."""
    fixes = sorted(fixes, key=lambda fix: not fix.is_preferred)
    applicable = [fix for fix in fixes if fix.applicability.applies(unsafe_fixes)]
    return (applicable or fixes or [None])[0]


def _noqa_offset(analysis: Analysis, diagnostic: Diagnostic) -> int:
    ignore = noqa_fix(analysis, diagnostic)
    return ignore.edits[0].start if ignore is not None and ignore.edits else diagnostic.start


MAX_NOQA_PASSES = 1000


def _add_noqa(analysis: Analysis) -> tuple[Analysis, int]:
    """Suppress every finding with the engine's own noqa edit (it merges codes into an existing
    comment), one at a time, re-analysing after each; stops if an edit silences nothing."""
    added = 0
    for _ in range(MAX_NOQA_PASSES):
        fix = next((fix for diagnostic in analysis.diagnostics if (fix := noqa_fix(analysis, diagnostic))), None)
        if fix is None:
            break
        suppressed = analyze(edited_source(analysis.source, fix), analysis.settings, analysis.project)
        if len(suppressed.diagnostics) >= len(analysis.diagnostics):
            break
        analysis, added = suppressed, added + 1
    return analysis, added


def _fixed_text(source_file: SourceFile, fixed_source: Source) -> str:
    return updated_notebook(source_file.raw, fixed_source) if fixed_source.is_notebook else fixed_source.text


def _write_or_diff(path: Path, source_file: SourceFile, fixed_source: Source, job: FileJob, result: FileResult) -> None:
    if job.diff:
        result.diff = _unified_diff(source_file.source, fixed_source, job.display_path)
    elif fixed_source.is_notebook:
        write_text(path, updated_notebook(source_file.raw, fixed_source), source_file.encoding)
    else:
        write_text(path, fixed_source.text, source_file.encoding)


def _unified_diff(before: Source, after: Source, display_path: str) -> str:
    """One diff per file, or per changed cell for notebooks (``path:cell N``)."""
    if not before.is_notebook:
        return _diff_text(before.text, after.text, display_path)
    return "".join(
        _diff_text(before.text[old.start : old.end], after.text[new.start : new.end], f"{display_path}:cell {old.index + 1}")
        for old, new in zip(before.cells, after.cells)
    )


def _diff_text(before: str, after: str, label: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=label, tofile=label
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


# ---------------------------------------------------------------- rule


def _run_rule(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.all == bool(args.code):
        parser.error("give one rule code, or --all")
    if args.all:
        rules = list(all_rules())
    else:
        rule = get_rule(args.code)
        if rule is None:
            print(f"error: unknown rule code {args.code}", file=sys.stderr)
            return EXIT_ERROR
        rules = [rule]
    if args.output_format == "json":
        sys.stdout.write(json.dumps([_rule_record(rule) for rule in rules], indent=2) + "\n")
    else:
        sys.stdout.write("\n".join(rule_text(rule) for rule in rules))
    return EXIT_CLEAN


def _rule_record(rule: Rule) -> dict:
    return {
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity.value,
        "default_enabled": rule.default_enabled,
        "explanation": rule.doc.strip(),
    }


# ---------------------------------------------------------------- serve


def _run_serve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from tfscope.lsp.server import start_server  # only the server needs pygls

    start_server(tcp=args.tcp, log_file=str(args.log_file) if args.log_file else None)
    return EXIT_CLEAN
