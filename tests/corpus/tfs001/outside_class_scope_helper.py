import tensorflow as tf


class StrategyScope:
    def __init__(self, strategy):
        self.strategy = strategy

    def __enter__(self):
        self.scope = self.strategy.scope()
        return self.scope.__enter__()

    def __exit__(self, *exc):
        return self.scope.__exit__(*exc)


strategy = tf.distribute.MirroredStrategy()
model = tf.keras.Sequential([tf.keras.layers.Dense(16, input_shape=(8,)), tf.keras.layers.Dense(1)])  # expect: TFS001
with StrategyScope(strategy):
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
model.fit(tf.zeros((4, 8)), tf.zeros((4, 1)))
