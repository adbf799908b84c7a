import tensorflow as tf
from tensorflow import keras


class TwoTower(keras.Model):
    def __init__(self, embedding_dim: int):
        super().__init__()
        self.query_tower = keras.layers.Dense(embedding_dim)
        self.item_tower = keras.layers.Dense(embedding_dim)

    def call(self, inputs):
        queries, items = inputs[:, :16], inputs[:, 16:]
        return tf.reduce_sum(self.query_tower(queries) * self.item_tower(items), axis=1, keepdims=True)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = TwoTower(embedding_dim=32)
    model.compile(optimizer=keras.optimizers.Adam(), loss="binary_crossentropy")

model.build(input_shape=(None, 32))  # expect: TFS015
model.fit(tf.random.normal((128, 32)), tf.cast(tf.random.uniform((128, 1)) > 0.5, tf.float32), epochs=1)
