"""A `tfrs.Model` retrieval model constructed in the scope but first called outside it, on a
sample batch to print its output shape: its towers' weights are created there, outside the
strategy, and the model is then trained with the strategy's optimizer."""
import tensorflow as tf
import tensorflow_recommenders as tfrs


class RetrievalModel(tfrs.Model):
    def __init__(self, vocabulary_size):
        super().__init__()
        self.query_tower = tf.keras.Sequential([tf.keras.layers.Embedding(vocabulary_size, 32)])
        self.candidate_tower = tf.keras.Sequential([tf.keras.layers.Embedding(vocabulary_size, 32)])
        self.task = tfrs.tasks.Retrieval()

    def call(self, features):
        return self.query_tower(features["user_id"])

    def compute_loss(self, features, training=False):
        return self.task(self.query_tower(features["user_id"]), self.candidate_tower(features["movie_id"]))


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = RetrievalModel(vocabulary_size=1_000)
    model.compile(optimizer=tf.keras.optimizers.Adagrad(0.1))

print(model({"user_id": tf.constant([1, 2])}).shape)  # expect: TFS015
with strategy.scope():
    model.fit(tf.data.Dataset.load("movielens_train").batch(256), epochs=3)
