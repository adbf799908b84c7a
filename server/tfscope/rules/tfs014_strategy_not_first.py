from tfscope.diagnostics import MoveBefore, Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import ClusterConfigured, SingleWorkerEvidence, StartupAfterOps, UsedAfterTpuReset
from tfscope.model.joins import describe_conditions
from tfscope.resolve.catalog import COLLECTIVE_STRATEGIES, EAGER_CONTEXT_FACTS, Api, EagerContextFact
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for a `MultiWorkerMirroredStrategy` created after other TensorFlow operations have
run.

## Why is this bad?
In a multi-worker set-up (a cluster from `TF_CONFIG` or a cluster resolver) the strategy
configures the collective ops of the eager context, which the first TensorFlow operation
has already initialised: `RuntimeError: Collective ops must be configured at program
startup` (`CollectiveAllReduceStrategy._initialize_multi_worker` in TensorFlow's
`python/distribute/collective_all_reduce_strategy.py`; `Context.configure_collective_ops` in
`python/eager/context.py` raises once the context has a handle). Every eager op initialises the
context (`quick_execute` in `python/eager/execute.py` calls `Context.ensure_initialized`, and the
C++ fast path falls back to it while there is no handle), and so does a `tf.device(...)` scope.
Device configuration, logging and seeding may come first. What each call does, as TensorFlow's
or Keras' source shows (a name covers the names below it; the most specific one decides):

{context_facts}

Not reported where TensorFlow does not raise: single-worker programs (`TF_CONFIG`
removed, or set by the program only after the strategy is created), where `_initialize_local` catches the error and only logs "Collective ops is not
configured at program startup", and TF1 graph mode (`tf.compat.v1.disable_v2_behavior()`),
which has no eager context. TPU initialisation
(`tf.tpu.experimental.initialize_tpu_system`) is not reported either: it may follow
host-side eager work (numpy loading, `clear_session()`, `tf.data` set-up), as the official
TPU Colabs do; it wipes TPU state, not the program's. What that wipe breaks is reported:
an object created under a `TPUStrategy` and used after a later `initialize_tpu_system` (a
notebook section that initialises the TPU again, then trains the old model) has lost its TPU
variables. A strategy object may be reused; objects built again after the initialisation are fine,
and so is a model or layer whose every weight is loaded back (`load_weights` without `by_name` or
`skip_mismatch`, `set_weights`): assigning a variable re-creates its missing buffer
(`AssignVariableOp` calls `LookupOrCreateResource` in TensorFlow's
`core/kernels/resource_variable_ops.cc`). Training it then still needs an optimizer made after
the initialisation: the one compiled before lost its slots and step counter.

## Example
```python
x = tf.random.normal((8, 4))
strategy = tf.distribute.MultiWorkerMirroredStrategy()
```

## Use instead
```python
strategy = tf.distribute.MultiWorkerMirroredStrategy()
x = tf.random.normal((8, 4))
```

## Fix safety
"Move the strategy's creation before the first TensorFlow operation" moves `strategy = ...`,
with the statements it needs from in between (its cluster resolver, set-up calls given that
resolver), to just before the statement that runs the first operation. It is offered only
when both sit in one statement list and the statements it crosses share no name with the
moved ones and have no side effects tfscope cannot name (a bare library call, a notebook
magic). It is safe: nothing crossed feeds the strategy or reads it, and TensorFlow asks for
exactly this order. Objects used after a TPU re-initialisation have no automatic fix.
"""


def _context_fact_line(fact: EagerContextFact) -> str:
    names = ", ".join(f"`{name.replace('tensorflow.', 'tf.', 1)}`" for name in fact.names)
    effect = "initialise the context" if fact.initialises else "may come first"
    return f"- {names} {effect}: {fact.why}. Source: {fact.source}."


DOC = DOC.replace("{context_facts}", "\n".join(_context_fact_line(fact) for fact in EAGER_CONTEXT_FACTS))


# What brings a wiped object back, by kind: an optimizer is replaced, a model or layer may also be
# reloaded (see ``note_method_after_reset``), anything else is made again.
_RELOAD = "create it again after the initialisation, or load every weight back into it (`load_weights`)"
_REMEDIES = {Api.OPTIMIZER: "create a new optimizer after the initialisation and compile with it",
             Api.MODEL: _RELOAD, Api.LOADED_MODEL: _RELOAD, Api.LAYER: _RELOAD}
_REMAKE = "create it again after the initialisation"


def check(model: SemanticModel):
    for event in model.events_of(UsedAfterTpuReset):
        yield Violation(
            node=event.node,
            message=f"{event.owner.describe()} was created on the TPU before `initialize_tpu_system` "
            f"re-initialised it, which wipes its variables; {_REMEDIES.get(event.owner.kind, _REMAKE)}",
            related=((event.reset, "the TPU system is initialised again here"),
                     (event.owner.site, f"{event.owner.describe()} is created here")),
        )
    if model.events_of(SingleWorkerEvidence):
        return
    sets_cluster = bool(model.events_of(ClusterConfigured))
    for event in model.events_of(StartupAfterOps):
        if event.kind not in COLLECTIVE_STRATEGIES:
            continue
        if sets_cluster and not event.cluster_set_before:  # no cluster yet: one worker, which only logs
            continue
        when = describe_conditions(event.first_op_path, model.spelled)
        yield Violation(
            node=event.node,
            message=f"{event.what} must come before any other TensorFlow operation in a multi-worker "
            f"set-up{f' (one runs before it when {when})' if when else ''}; move it to the start of the program",
            related=((event.first_op, "the first TensorFlow operation runs here"),),
            intent=MoveBefore(event.node, event.first_op),
        )


RULE = Rule(
    code="TFS014",
    name="strategy-not-first",
    severity=Severity.WARNING,
    summary="MultiWorkerMirroredStrategy created after other TensorFlow ops; TPU objects used after re-initialisation",
    doc=DOC,
    check=check,
    fixable=True,
)
