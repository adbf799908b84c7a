"""Fixes that rewrite an expression in place: run a step through ``strategy.run`` (TFS012), call a
Keras loop directly (TFS012), call the sibling that picks distributed steps (TFS012), average a
per-example loss (TFS013).

Each edit inserts or deletes a few tokens around code it keeps verbatim, and the fix names those
tokens (``Fix.added_tokens`` / ``removed_tokens``): validation checks that nothing else changed.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

from tfscope.diagnostics import (
    Applicability,
    AverageLossPerExample,
    CallDirectly,
    CallInstead,
    Edit,
    Fix,
    RunThroughStrategy,
)
from tfscope.source import Source

CALL_DIRECTLY_TITLE = "Call it directly, not through `strategy.run`"
AVERAGE_LOSS_TITLE = 'Use `reduction="none"` and `tf.nn.compute_average_loss`'
REDUCTION_NONE = '"none"'
# a name for the global batch size, as the distributed training guides spell it
_GLOBAL_BATCH_NAME = re.compile(r"global_batch(_size)?", re.IGNORECASE)
_SKIPPED_BETWEEN_TOKENS = " \t\r\n\\"


def call_instead_title(name: str) -> str:
    return f"Call `{name}` instead"


def run_title(strategy_name: str) -> str:
    return f"Run it through `{strategy_name}.run`"


def tokens_of(fragment: str) -> tuple[str, ...]:
    """The token strings of a piece of code (unbalanced brackets allowed: it is never a program)."""
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(fragment).readline):
            if token.string.strip():
                found.append(token.string)
    except (tokenize.TokenError, SyntaxError):
        pass
    return tuple(found)


def _text(source: Source, node: ast.AST) -> str:
    start, end = source.node_span(node)
    return source.text[start:end]


def _next_code_char(source: Source, offset: int, limit: int) -> int | None:
    """The offset of the first character from ``offset`` that is code (not layout), before ``limit``."""
    while offset < limit and source.code[offset] in _SKIPPED_BETWEEN_TOKENS:
        offset += 1
    return offset if offset < limit else None


# --- TFS012: step(x, y) -> strategy.run(step, args=(x, y)) --------------------------------------


def run_through_strategy(intent: RunThroughStrategy, source: Source, tree: ast.Module) -> list[Fix]:
    """One candidate per name the strategy goes by: re-analysis keeps the one that reaches it here."""
    if not _in_tree(tree, intent.call):
        return []
    return [fix for name in intent.strategy_names if (fix := _run_through(intent.call, name, source))]


def _run_through(call: ast.Call, strategy_name: str, source: Source) -> Fix | None:
    if any(isinstance(arg, ast.Starred) for arg in call.args) or any(k.arg is None for k in call.keywords):
        return None  # `*args` / `**kwargs` have no literal `args=` / `kwargs=` spelling
    if call.keywords and call.args and _position(call.keywords[0].value) < _position(call.args[-1]):
        return None
    _, func_end = source.node_span(call.func)
    call_start, call_end = source.node_span(call)
    paren = _next_code_char(source, func_end, call_end)
    if paren is None or source.code[paren] != "(":
        return None
    prefix = f"{strategy_name}.run("
    edits = [Edit(call_start, call_start, prefix)]
    added = list(tokens_of(prefix))
    removed: list[str] = []
    if not call.args and not call.keywords:
        edits.append(Edit(func_end, call_end, ")"))  # `step()` -> `strategy.run(step)`
        return _fix(run_title(strategy_name), edits, [*added, ")"], ["(", ")"])
    if call.args:
        # the call's own parentheses become the `args=` tuple
        edits.append(Edit(paren, paren, ", args="))
        added += [",", "args", "="]
        _, last_end = source.node_span(call.args[-1])
        after_last = _next_code_char(source, last_end, call_end)
        has_comma = after_last is not None and source.code[after_last] == ","
        comma = "," if len(call.args) == 1 and not has_comma else ""
        if call.keywords:  # the tuple closes after its last item: `args=(x,), kwargs={...}`
            at = after_last if has_comma else last_end
            edits.append(Edit(at, at, comma + ")"))
            added += [*comma, ")"]
        else:  # the call's `)` closes the tuple; one more closes `run(`
            if comma:
                edits.append(Edit(last_end, last_end, comma))
                added.append(comma)
            edits.append(Edit(call_end, call_end, ")"))
            added.append(")")
    else:  # only keywords: the call's `(` goes, its `)` closes `run(`
        edits.append(Edit(paren, paren + 1, ", "))
        added.append(",")
        removed.append("(")
    if call.keywords:
        keyword_edits, keyword_added, keyword_removed = _keywords_as_dict(source, call)
        edits += keyword_edits
        added += keyword_added
        removed += keyword_removed
    return _fix(run_title(strategy_name), edits, added, removed)


def _keywords_as_dict(source: Source, call: ast.Call) -> tuple[list[Edit], list[str], list[str]]:
    """`training=True` -> `kwargs={"training": True}`."""
    edits: list[Edit] = []
    added, removed = ["kwargs", "=", "{"], []
    for keyword in call.keywords:
        start, _ = source.node_span(keyword)
        value_start, _ = source.node_span(keyword.value)
        equals = source.code.find("=", start, value_start)
        opening = "" if edits else "kwargs={"
        edits.append(Edit(start, equals + 1, f'{opening}"{keyword.arg}": '))
        added += [f'"{keyword.arg}"', ":"]
        removed += [keyword.arg, "="]
    _, last_end = source.node_span(call.keywords[-1].value)
    edits.append(Edit(last_end, last_end, "}"))
    added.append("}")
    return edits, added, removed


# --- TFS012: strategy.run(model.fit, args=(x, y)) -> model.fit(x, y) ----------------------------


def call_directly(intent: CallDirectly, source: Source, tree: ast.Module) -> list[Fix]:
    run = intent.run_call
    if not _in_tree(tree, run):
        return []
    if len(run.args) != 1 or any(k.arg != "args" for k in run.keywords):
        return []  # `fn=`, `kwargs=` or `options=`: no one-to-one spelling as a direct call
    function = run.args[0]
    if not isinstance(function, (ast.Attribute, ast.Name)):
        return []  # `model.fit`, as `strategy.run` is given it
    given = run.keywords[0].value if run.keywords else None
    if given is not None and not isinstance(given, (ast.Tuple, ast.List)):
        return []
    if given is not None and any(isinstance(item, ast.Starred) for item in given.elts):
        return []
    run_start, run_end = source.node_span(run)
    function_start, function_end = source.node_span(function)
    removed = [*tokens_of(_text(source, run.func)), "("]
    edits = [Edit(run_start, function_start, "")]
    if given is None:
        edits.append(Edit(function_end, run_end, "()"))
        return [_fix(CALL_DIRECTLY_TITLE, edits, ["(", ")"], [*removed, ")"], Applicability.UNSAFE)]
    given_start, given_end = source.node_span(given)
    between = source.text[function_end:given_start]
    after = source.text[given_end:run_end]
    if "#" in between + after:
        return []
    removed += [*tokens_of(between), *tokens_of(after)]
    if isinstance(given, ast.List):  # the list's brackets become the call's parentheses
        edits += [Edit(function_end, given_start + 1, "("), Edit(given_end - 1, run_end, ")")]
        return [_fix(CALL_DIRECTLY_TITLE, edits, ["(", ")"], [*removed, "[", "]"], Applicability.UNSAFE)]
    edits += [Edit(function_end, given_start, ""), Edit(given_end, run_end, "")]
    if len(given.elts) == 1:  # `args=(x,)` -> `fit(x)`: a call needs no one-element tuple comma
        _, item_end = source.node_span(given.elts[0])
        comma = source.code.find(",", item_end, given_end)
        if comma != -1:
            edits.append(Edit(comma, comma + 1, ""))
            removed.append(",")
    return [_fix(CALL_DIRECTLY_TITLE, sorted(edits, key=lambda edit: edit.start), [], removed, Applicability.UNSAFE)]


# --- TFS013: reduction="none" and tf.nn.compute_average_loss ------------------------------------


def average_loss_per_example(intent: AverageLossPerExample, source: Source, tree: ast.Module) -> list[Fix]:
    tensorflow = _tensorflow_alias(tree)
    if tensorflow is None or not intent.calls or not _in_tree(tree, intent.constructor, *intent.calls):
        return []
    batch_sizes = {_global_batch_size(tree, call) for call in intent.calls}
    if len(batch_sizes) != 1 or None in batch_sizes:
        return []  # only where the global batch size has a name the step can see
    batch_size = batch_sizes.pop()
    reduction = _reduction_edit(source, intent.constructor)
    if reduction is None:
        return []
    edits, added, removed = reduction
    for call in intent.calls:
        start, end = source.node_span(call)
        head = f"{tensorflow}.nn.compute_average_loss("
        tail = f", global_batch_size={batch_size})"
        edits += [Edit(start, start, head), Edit(end, end, tail)]
        added += [*tokens_of(head), *tokens_of(tail)]
    return [_fix(AVERAGE_LOSS_TITLE, sorted(edits, key=lambda e: e.start), added, removed, Applicability.UNSAFE)]


def _reduction_edit(source: Source, constructor: ast.Call) -> tuple[list[Edit], list[str], list[str]] | None:
    """`reduction=...` replaced by `"none"`, or `reduction="none"` added as the last argument."""
    for keyword in constructor.keywords:
        if keyword.arg == "reduction":
            start, end = source.node_span(keyword.value)
            return [Edit(start, end, REDUCTION_NONE)], [REDUCTION_NONE], list(tokens_of(source.text[start:end]))
    if any(k.arg is None for k in constructor.keywords):
        return None  # `**config` may hold a reduction already
    _, call_end = source.node_span(constructor)
    closing = call_end - 1
    arguments = [*constructor.args, *(k.value for k in constructor.keywords)]
    if not arguments:
        return [Edit(closing, closing, f"reduction={REDUCTION_NONE}")], ["reduction", "=", REDUCTION_NONE], []
    _, last_end = source.node_span(max(arguments, key=_end_position))
    after = _next_code_char(source, last_end, closing)
    if after is not None and source.code[after] == ",":
        return [Edit(after + 1, after + 1, f" reduction={REDUCTION_NONE},")], ["reduction", "=", REDUCTION_NONE, ","], []
    return [Edit(last_end, last_end, f", reduction={REDUCTION_NONE}")], [",", "reduction", "=", REDUCTION_NONE], []


def _tensorflow_alias(tree: ast.Module) -> str | None:
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tensorflow":
                    return alias.asname or "tensorflow"
    return None


def _global_batch_size(tree: ast.Module, call: ast.Call) -> str | None:
    """A name for the global batch size bound in the module or in a function around ``call``."""
    scopes = [tree, *_functions_around(tree, call)]
    for scope in reversed(scopes):
        for name in _names_bound_in(scope):
            if _GLOBAL_BATCH_NAME.fullmatch(name):
                return name
    return None


def _functions_around(tree: ast.Module, node: ast.AST) -> list[ast.AST]:
    around = []
    for candidate in ast.walk(tree):
        if isinstance(candidate, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            inner is node for inner in ast.walk(candidate)
        ):
            around.append(candidate)
    return sorted(around, key=_position)


def _names_bound_in(scope: ast.AST) -> list[str]:
    names = []
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        names += [argument.arg for argument in ast.walk(scope.args) if isinstance(argument, ast.arg)]
    for statement in scope.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names += [target.id for target in targets if isinstance(target, ast.Name)]
    return names


# --- TFS012: self.step_functions(c) -> self.distributed_step_functions(c) -------------------------


def call_instead(intent: CallInstead, source: Source, tree: ast.Module) -> list[Fix]:
    func = intent.call.func
    if not _in_tree(tree, intent.call) or not isinstance(func, (ast.Name, ast.Attribute)):
        return []
    old = func.id if isinstance(func, ast.Name) else func.attr
    _, end = source.node_span(func)
    if source.text[end - len(old):end] != old:
        return []  # the name is not the last thing the callee's text spells
    return [_fix(call_instead_title(intent.name), [Edit(end - len(old), end, intent.name)], [intent.name], [old])]


def _in_tree(tree: ast.Module, *nodes: ast.AST) -> bool:
    """The nodes belong to the analysed text (not to a module it imports from)."""
    wanted = {id(node) for node in nodes}
    found = {id(node) for node in ast.walk(tree) if id(node) in wanted}
    return found == wanted


def _position(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset


def _end_position(node: ast.AST) -> tuple[int, int]:
    return node.end_lineno or node.lineno, node.end_col_offset or 0


def _fix(title: str, edits: list[Edit], added, removed, applicability: Applicability = Applicability.UNSAFE) -> Fix:
    return Fix(title, tuple(edits), applicability, is_preferred=True,
               added_tokens=tuple(added), removed_tokens=tuple(removed))
