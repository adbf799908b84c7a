# corpus: keras-version=2
"""A registry keyed by (category, name), filled by class decorators: the model, its backbone and
the loss are built from the configuration by one factory, which the model's constructor calls
again; the loss is called in the distributed step."""
import tensorflow as tf

LOSS = "loss"
BACKBONE = "backbone"
MODEL = "model"


class Registry:
    def __init__(self):
        self._classes = {}

    def register(self, category, name):
        def decorator(cls):
            self._classes[(category, name)] = cls
            return cls

        return decorator

    def build(self, category, config):
        args = dict(config)
        cls = self._classes[(category, args.pop("name"))]
        return cls(**args)


REGISTRY = Registry()


@REGISTRY.register(LOSS, "dice")
class DiceLoss(tf.keras.losses.Loss):
    def __init__(self, smooth=1.0, name="dice"):
        super().__init__(name=name)  # expect: TFS013
        self.smooth = smooth

    def call(self, y_true, y_pred):
        overlap = tf.reduce_sum(y_true * y_pred, axis=[1, 2])
        return 1.0 - (2.0 * overlap + self.smooth) / (tf.reduce_sum(y_true + y_pred, axis=[1, 2]) + self.smooth)


@REGISTRY.register(BACKBONE, "unet")
class UNet(tf.keras.Model):
    def __init__(self, filters=32):
        super().__init__()
        self.down = tf.keras.layers.Conv2D(filters, 3, padding="same", activation="relu")
        self.head = tf.keras.layers.Conv2D(1, 1, activation="sigmoid")

    def call(self, images):
        return self.head(self.down(images))


@REGISTRY.register(MODEL, "segmenter")
class Segmenter(tf.keras.Model):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = REGISTRY.build(BACKBONE, backbone)

    def call(self, images):
        return self.backbone(images)


CONFIG = {"model": {"name": "segmenter", "backbone": {"name": "unet"}}, "loss": {"name": "dice"}}

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = REGISTRY.build(MODEL, CONFIG["model"])
    loss_fn = REGISTRY.build(LOSS, CONFIG["loss"])
    optimizer = tf.keras.optimizers.Adam(1e-4)


@tf.function
def train_step(images, masks):
    def step(images, masks):
        with tf.GradientTape() as tape:
            loss = loss_fn(masks, model(images))
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss

    return strategy.run(step, args=(images, masks))
