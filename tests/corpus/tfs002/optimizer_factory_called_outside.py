import tensorflow as tf
from tensorflow import keras


def make_optimizer(base_lr: float, warmup_steps: int) -> keras.optimizers.Optimizer:
    schedule = keras.optimizers.schedules.CosineDecay(
        0.0, decay_steps=10_000, warmup_target=base_lr, warmup_steps=warmup_steps
    )
    return keras.optimizers.AdamW(learning_rate=schedule, weight_decay=0.05)


strategy = tf.distribute.MirroredStrategy()
optimizer = make_optimizer(1e-3, warmup_steps=500)  # expect: TFS002

with strategy.scope():
    model = keras.applications.MobileNetV2(weights=None, classes=10, input_shape=(96, 96, 3))
    model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy")
