"""One registry for every configurable class: `@REGISTRY.register_loss("ssd")` on a class, then
`REGISTRY.build_loss({"name": "ssd", ...})` wherever the configuration names it."""

LOSS_CLASS = "loss_class"
BACKBONE_CLASS = "backbone_class"
MODEL_CLASS = "model_class"


class Registry:
    def __init__(self):
        self._dict = {}

    def _register(self, category, key, value):
        if (category, key) in self._dict:
            raise ValueError(f"{key} is already registered in {category}")
        self._dict[(category, key)] = value

    def register(self, category, name, cls=None):
        if cls is not None:
            self._register(category, name, cls)
            return cls

        def decorator(c):
            self._register(category, name, c)
            return c

        return decorator

    def get(self, category, key):
        if (category, key) not in self._dict:
            raise ValueError(f"{key} is not registered in {category}")
        return self._dict[(category, key)]

    def build_from_config(self, category, config, default_args=None):
        args = dict(config)
        if default_args is not None:
            for name, value in default_args.items():
                args.setdefault(name, value)
        cls = self.get(category, args.pop("name"))
        return cls(**args)

    def register_loss(self, name, cls=None):
        return self.register(LOSS_CLASS, name, cls)

    def build_loss(self, config, default_args=None):
        return self.build_from_config(LOSS_CLASS, config, default_args)

    def register_backbone(self, name, cls=None):
        return self.register(BACKBONE_CLASS, name, cls)

    def build_backbone(self, config, default_args=None):
        return self.build_from_config(BACKBONE_CLASS, config, default_args)

    def register_model(self, name, cls=None):
        return self.register(MODEL_CLASS, name, cls)

    def build_model(self, config, default_args=None):
        return self.build_from_config(MODEL_CLASS, config, default_args)


REGISTRY = Registry()
