"""Binding a value to an assignment's target: a name, an attribute, an item, a tuple; and what
that records (a strategy's name, an owner's name, a model put in the place of a distributed one)."""

from __future__ import annotations

import ast

from tfscope.astutil import dotted_name, text_of
from tfscope.model.context import Frame
from tfscope.model.entities import Owner, Strategy
from tfscope.model.facts import ClusterConfigured
from tfscope.model.joins import owners_in
from tfscope.model.values import SET_UP_METHODS, ApiRef, Instance, Loss, Sequence, subscript_key
from tfscope.resolve.catalog import Api

# What an attribute keeps for training that a rebuilt copy replaces.
_REPLACEABLE = frozenset({Api.MODEL, Api.LOADED_MODEL})


class Bindings:

    def bind(self, target: ast.AST, value, frame: Frame) -> None:
        if isinstance(target, ast.Name):
            previous = frame.env.get(target.id)
            if isinstance(previous, Strategy) and isinstance(value, Strategy) and previous is not value:
                # alternatives (`try: TPUStrategy() except: MirroredStrategy()`): the one in use stands
                # for both, and a real strategy for a default fallback (its mistakes are the real ones)
                if value.is_default and not previous.is_default:
                    previous, value = value, previous
                value.alternatives.append(previous)
            frame.env[target.id] = value
            if frame.passed and target.id in frame.passed:  # no longer what the call passed
                frame.passed = {name: passed for name, passed in frame.passed.items() if name != target.id} or None
            self.label_value(value, target)
        elif isinstance(target, ast.Attribute):
            receiver = self.eval(target.value, frame)
            replaced = receiver.attrs.get(target.attr) if isinstance(receiver, Instance) else None
            if isinstance(receiver, Loss) and target.attr == "reduction":
                receiver.reduction_assigned = True
            elif isinstance(receiver, (Instance, Owner, Loss)):
                self.note_attribute_write(receiver, target.attr)
                receiver.attrs[target.attr] = value
                if isinstance(receiver, Instance):
                    _note_flag(receiver, target.attr, value, frame)
            else:
                dotted = dotted_name(target)
                if dotted:
                    frame.env[dotted] = value
            self.label_value(value, target)
            self.note_replacement(replaced, value, target)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, (ast.Name, ast.Attribute)):
            container = self.eval(target.value, frame)
            key = self.eval(target.slice, frame)
            if isinstance(container, Sequence):  # `metrics["train/loss"] = Mean()`: one more item, keyed
                self.add_items(target.value, container, [(value, subscript_key(target.slice, key))], frame)
            elif names_tf_config(container, target.slice):
                self.cluster_set = True
                self.cluster_writes += 1
                self.report(ClusterConfigured(target))
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = value.items if isinstance(value, Sequence) else ()
            for index, element in enumerate(target.elts):
                if isinstance(element, ast.Starred):
                    self.bind(element.value, None, frame)
                else:
                    self.bind(element, items[index] if index < len(items) else None, frame)
        else:
            self.eval_children(target, frame)

    def note_replacement(self, previous, value, target: ast.Attribute) -> None:
        """A model made outside every scope into the attribute that held one made in a scope (a
        `fit` method that rebuilds `self.model`) takes the distributed model's place."""
        replaced = next((owner for owner in owners_in(previous) if owner.kind in _REPLACEABLE
                         and owner.placement is not None and not owner.placement.is_default), None)
        if replaced is None:
            return
        strategy = replaced.placement
        for owner in owners_in(value):
            if owner.kind in _REPLACEABLE and owner.placement is None and owner is not replaced:
                conditions = self.resite_to_caller_of(owner, strategy)
                owner.meet(strategy, self.local_node(target), f"put in `{text_of(target)}` in place of the one created in "
                           f"the {strategy.describe()} scope", "replaces", conditions)

    def label_value(self, value, target: ast.AST) -> None:
        text = text_of(target)
        if isinstance(value, Strategy):
            value.name_in(self.frame.key, dotted_name(target))
            if value.binding is None:
                value.binding, value.binding_key = self.statement, self.frame.key
        for owner in owners_in(value):
            if not owner.name or owner.site_frame is self.frame:
                owner.name = text
            if not self.call_stack:
                self.model.bindings.append((target, owner))


def names_tf_config(holder, key: ast.AST) -> bool:
    """`os.environ["TF_CONFIG"]`: where a multi-worker strategy reads its cluster."""
    return (isinstance(holder, ApiRef) and holder.name == "os.environ" and isinstance(key, ast.Constant)
            and key.value == "TF_CONFIG")


def _note_flag(instance: Instance, name: str, value, frame: Frame) -> None:
    function = frame.function
    set_as_state = instance.cls.attribute_bag or (function is not None and function.node.name not in SET_UP_METHODS)
    if isinstance(value, ast.Constant) and set_as_state:
        instance.flags.add(name)
    else:
        instance.flags.discard(name)
